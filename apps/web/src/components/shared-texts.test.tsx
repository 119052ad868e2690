import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useConnection } from '../lib/connection.ts';
import { FRENCH } from '../lib/french.ts';
import { provideFrench, setLanguage } from '../lib/i18n.ts';
import { ConnectionNotice } from './connection-notice.tsx';
import { CopyButton } from './ui/copy-button.tsx';
import { TextField } from './ui/field.tsx';
import { OtpInput } from './ui/otp-input.tsx';

describe('the shared components in French', () => {
  afterEach(async () => {
    useConnection.setState({ status: 'online' });
    await setLanguage('en');
  });

  it('says "Reconnexion…" with the next try, names the copy button and the code field, and translates a form check', async () => {
    // the contract's French for one of its checks (fixed here: the field only passes it through)
    provideFrench({ ...FRENCH, contract: { ...FRENCH.contract, 'Enter your password': 'Saisissez votre mot de passe' } });
    await setLanguage('fr');
    useConnection.setState({ status: 'reconnecting', since: Date.now(), nextTryAt: Date.now() + 4_000, attempt: 1 });
    render(
      <>
        <ConnectionNotice />
        <TextField label="Mot de passe" error="Enter your password" />
        <OtpInput value="" onChange={() => undefined} />
        <CopyButton value="0a5e" label="ID partenaire" />
      </>,
    );
    const notice = await screen.findByTestId('connection-notice');
    expect(notice.textContent).toMatch(/^Reconnexion… Nouvel essai dans [1-4]\u00a0s\.Réessayer$/);
    expect(screen.getByRole('alert').textContent).toBe('Saisissez votre mot de passe');
    expect(screen.getByLabelText('Code d’authentification')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copier\u00a0: ID partenaire' })).toBeTruthy();
  });
});
