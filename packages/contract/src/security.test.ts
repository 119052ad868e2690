import { describe, expect, it } from 'vitest';
import {
  describeSecurityEvent,
  securityActorLabel,
  securityEventTexts,
  securityHistoryCsv,
  securityKindLabel,
  SECURITY_KINDS,
  type SecurityEvent,
} from './security.ts';

const event = (action: string, details: Record<string, unknown> = {}, target: string | null = null): SecurityEvent => ({
  id: '1',
  at: '2026-11-16T01:44:00.000Z',
  kind: 'settings',
  action,
  actor: { userId: 'u1', name: 'Ada Mensah', email: 'admin@acme.test', label: 'Ada Mensah' },
  target,
  details,
  ip: '203.0.113.7',
  browser: 'Chrome 131 on Windows',
});

describe('the security history in words', () => {
  const samples = [
    event('login.succeeded', { method: 'passkey' }),
    event('login.failed'),
    event('user.locked', { minutes: 30 }),
    event('session.ended', { browser: 'Firefox 130 on Linux' }),
    event('password.changed', { reason: 'reset' }),
    event('password.reset_by_admin', { email: 'jo@acme.test' }),
    event('passkey.renamed', {}, 'Laptop'),
    event('user.invited', { email: 'jo@acme.test', role: 'treasury' }),
    event('user.role_changed', { email: 'jo@acme.test', from: 'view', to: 'admin' }),
    event('user.time_zone_changed', { from: 'UTC', to: 'Africa/Abidjan' }),
    event('user.language_changed', { from: null, to: 'fr' }),
    event('user.language_changed', { from: 'fr', to: null }),
    event('api_key.created', { name: 'Checkout' }),
    event('ip_address.changed', { from: '203.0.113.7', to: '203.0.113.8' }),
    event('webhook.created', { url: 'https://hooks.example' }),
    event('settlement_wallet.denied', { address: 'TQn9Y2kh' }),
    event('settlement.failed', { reason: 'The network refused the transaction' }),
    event('partner_rate.change_requested', { code: 'XOF' }),
    event('partner.low_balance_limit_changed', { lowBalanceLimit: '1500.00' }),
    event('something.new_here'),
  ];

  it('says each event in English as before, and in French for a French reader', () => {
    expect(samples.map((e) => describeSecurityEvent(e))).toEqual([
      'Signed in with a passkey',
      'Sign-in failed: wrong password',
      'Sign-in locked for 30 minutes after repeated failures',
      'Ended a session (Firefox 130 on Linux)',
      'Chose a new password with a reset code',
      'Reset the password of jo@acme.test',
      'Renamed a passkey to “Laptop”',
      'Invited jo@acme.test as Treasury',
      'Changed the role of jo@acme.test from View only to Admin',
      'Changed the time zone to Africa/Abidjan',
      'Changed the language to Français',
      'Changed the language to the browser’s',
      'Created the API key “Checkout”',
      'Changed the allowed IP address 203.0.113.7 to 203.0.113.8',
      'Added the webhook endpoint https://hooks.example',
      'Declined the wallet TQn9Y2kh',
      'A withdrawal failed: The network refused the transaction',
      'Asked to change a country (XOF)',
      'Changed the low balance limit to 1500.00 USD',
      'Something new here',
    ]);
    expect(samples.map((e) => describeSecurityEvent(e, 'fr'))).toEqual([
      'Connexion avec une clé d’accès',
      'Échec de connexion\u00a0: mot de passe incorrect',
      'Connexion bloquée pendant 30 minutes après plusieurs échecs',
      'Fin d’une session (Firefox 130 sous Linux)',
      'Nouveau mot de passe choisi avec un code de réinitialisation',
      'Réinitialisation du mot de passe de jo@acme.test',
      'Clé d’accès renommée en «\u00a0Laptop\u00a0»',
      'Invitation de jo@acme.test comme Trésorerie',
      'Changement du rôle de jo@acme.test de Lecture seule à Administrateur',
      'Fuseau horaire changé\u00a0: Africa/Abidjan',
      'Langue changée\u00a0: Français',
      'Langue changée pour celle du navigateur',
      'Création de la clé API «\u00a0Checkout\u00a0»',
      'Modification de l’adresse IP autorisée 203.0.113.7 en 203.0.113.8',
      'Ajout du point de terminaison webhook https://hooks.example',
      'Refus du portefeuille TQn9Y2kh',
      'Un retrait a échoué\u00a0: The network refused the transaction',
      'Demande de modification d’un pays (XOF)',
      'Modification du seuil de solde bas à 1\u202f500,00\u00a0USD',
      'Action\u00a0: something new here',
    ]);
  });

  it('names every kind in both languages', () => {
    for (const kind of SECURITY_KINDS) {
      expect(securityKindLabel(kind)).toBeTruthy();
      expect(securityKindLabel(kind, 'fr')).toBeTruthy();
    }
    expect(securityKindLabel('sign-in', 'fr')).toBe('Connexions');
    expect(securityKindLabel('two-step', 'fr')).toBe('Validation en deux étapes');
  });

  it('gives a French row the server’s labels in French, and keeps the export in English', () => {
    const system = { ...event('settlement_wallet.screening_passed', { address: 'TQn9Y2kh' }), kind: 'wallets' as const };
    system.actor = { userId: null, name: null, email: null, label: securityActorLabel('system') };
    const key = {
      ...event('api_key.rolled'),
      kind: 'api-keys' as const,
      actor: { userId: null, name: null, email: null, label: securityActorLabel('api key pk_live_1') },
    };
    expect(securityEventTexts(system, 'fr')).toEqual({
      description: 'Contrôle de conformité réussi pour le portefeuille TQn9Y2kh',
      kind: 'Portefeuilles',
      person: 'Système',
      browser: 'Chrome 131 sous Windows',
    });
    expect(securityEventTexts(key, 'fr').person).toBe('Clé API pk_live_1');
    // a member named like a label keeps their name
    expect(securityEventTexts({ ...event('logout'), actor: { userId: 'u2', name: 'System', email: 's@acme.test', label: 'System' } }, 'fr').person).toBe(
      'System',
    );
    expect(securityEventTexts(system)).toEqual({
      description: 'Screening passed for the wallet TQn9Y2kh',
      kind: 'Wallets',
      person: 'System',
      browser: 'Chrome 131 on Windows',
    });

    const csv = securityHistoryCsv([system, key, event('user.language_changed', { from: null, to: 'fr' })]);
    expect(csv).toContain('System,,Wallets,Screening passed for the wallet TQn9Y2kh,203.0.113.7,Chrome 131 on Windows,settlement_wallet.screening_passed');
    expect(csv).toContain('Changed the language to Français');
    expect(csv).not.toMatch(/Système|Changement|sous Windows/);
  });
});
