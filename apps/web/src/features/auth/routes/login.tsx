import { KeyRound } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { LoginRequest } from '@portal/contract/auth';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { PASSKEY_MESSAGES } from '@portal/contract/passkeys';
import { ceremonyMessage, passkeysSupported } from '../../../lib/passkeys.ts';
import { useSession } from '../../../lib/session/session-store.ts';
import { authApi, signInWithPasskey } from '../api/auth.ts';
import { AuthCard } from '../components/auth-card.tsx';
import { continueSignIn } from '../sign-in.ts';
import { takeFlash } from '../../../lib/session/session.ts';
import { commonMessages } from '../../../lib/common-messages.ts';
import { localizeMessage, useT } from '../../../lib/i18n.ts';
import { authMessages } from '../messages.ts';

type FieldErrors = Partial<Record<'email' | 'password', string>>;

/**
 * Sign-in: e-mail and password, checked with the contract's schema before they are sent (plain state rather than
 * react-hook-form here: the sign-in page has a JavaScript budget). The Tab key goes e-mail, password, Sign in, then
 * "Forgot password?" (below the button, where the keyboard reaches it last).
 */
export function LoginScreen() {
  const t = useT(authMessages);
  const common = useT(commonMessages);
  const navigate = useNavigate();
  const [flash] = useState(takeFlash);
  const [values, setValues] = useState({ email: '', password: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [passkeyBusy, setPasskeyBusy] = useState(false);
  const applyAuthResult = useSession((s) => s.applyAuthResult);
  const canUsePasskeys = passkeysSupported();

  async function withPasskey() {
    setError(undefined);
    setPasskeyBusy(true);
    try {
      applyAuthResult(await signInWithPasskey());
      void navigate('/', { replace: true });
    } catch (err) {
      if (err instanceof ApiError && err.code === 'AccountInactive') {
        void navigate('/account-inactive');
        return;
      }
      // the browser's own refusals (the prompt closed, timed out) say so in the portal's words
      setError(err instanceof ApiError ? err.message : (ceremonyMessage(err) ?? localizeMessage(PASSKEY_MESSAGES.notAccepted)));
    } finally {
      setPasskeyBusy(false);
    }
  }

  const change = (field: keyof FieldErrors) => (e: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [field]: e.target.value }));
    setErrors((x) => ({ ...x, [field]: undefined }));
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(undefined);
    const parsed = LoginRequest.safeParse(values);
    if (!parsed.success) {
      const found: FieldErrors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if ((field === 'email' || field === 'password') && !found[field]) found[field] = issue.message;
      }
      return setErrors(found);
    }
    const { email, password } = parsed.data;
    setBusy(true);
    try {
      const res = await authApi.login({ email, password });
      void navigate(continueSignIn(res, { email, password }));
    } catch (err) {
      if (err instanceof ApiError && err.code === 'AccountInactive') {
        void navigate('/account-inactive');
        return;
      }
      setError(err instanceof Error ? err.message : common('somethingWrong'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthCard title={t('login.title')} subtitle={t('login.subtitle')}>
      <form onSubmit={(e) => void submit(e)} className="space-y-4" noValidate>
        {/* why the last session ended (another tab, inactivity, a removal...): news, not a mistake of the person; the
            contract's words are translated here, the server's come in the page's language already */}
        {flash && !error && (
          <Alert tone="info" testId="sign-in-flash">
            {localizeMessage(flash)}
          </Alert>
        )}
        {error && <Alert tone="danger">{error}</Alert>}
        <TextField
          label={t('email')}
          type="email"
          name="email"
          autoComplete="username"
          autoFocus
          required
          value={values.email}
          onChange={change('email')}
          error={errors.email}
        />
        <TextField
          label={t('password')}
          type="password"
          name="password"
          autoComplete="current-password"
          required
          value={values.password}
          onChange={change('password')}
          error={errors.password}
        />
        <Button type="submit" block size="lg" loading={busy}>
          {t('login.submit')}
        </Button>
        <p className="text-center text-sm">
          <Link to="/requested-password-reset" className="font-medium text-brand-700 hover:underline">
            {t('login.forgot')}
          </Link>
        </p>
        {/* a passkey is both factors: no e-mail, password or code (its browser code loads when it is asked for) */}
        {canUsePasskeys && (
          <>
            <div className="flex items-center gap-3 text-xs text-muted" aria-hidden="true">
              <span className="h-px flex-1 bg-line" />
              {t('login.or')}
              <span className="h-px flex-1 bg-line" />
            </div>
            <Button type="button" variant="secondary" block size="lg" loading={passkeyBusy} onClick={() => void withPasskey()}>
              <KeyRound className="size-4" aria-hidden="true" />
              {t('login.passkey')}
            </Button>
          </>
        )}
      </form>
    </AuthCard>
  );
}
