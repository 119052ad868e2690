import { AUTH_MESSAGES, OtpCode, OtpOrRecoveryCode, type AuthResult } from '@portal/contract/auth';
import { Check, Copy, Download } from 'lucide-react';
import { Fragment, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { OtpInput } from '../../../components/ui/otp-input.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useSession } from '../../../lib/session/session-store.ts';
import { authApi } from '../api/auth.ts';
import { AuthCard, StepIndicator } from '../components/auth-card.tsx';
import { QrCode } from '../../../components/ui/qr-code.tsx';
import { downloadText } from '../../../lib/download.ts';
import { toast } from '../../../components/ui/toast-store.ts';
import { commonMessages } from '../../../lib/common-messages.ts';
import { localizeMessage, translator, useT } from '../../../lib/i18n.ts';
import { authMessages } from '../messages.ts';

/** The code formats are the contract's: six digits, or in recovery mode also a recovery code (xxxxx-xxxxx). */
const isCode = (code: string) => OtpCode.safeParse(code).success;
const isCodeOrRecovery = (code: string) => OtpOrRecoveryCode.safeParse(code).success;

function CopyButton({ text, label }: { text: string; label: string }) {
  const t = useT(authMessages);
  const [done, setDone] = useState(false);
  return (
    <Button
      variant="secondary"
      size="sm"
      onClick={() => {
        void navigator.clipboard?.writeText(text).then(() => {
          setDone(true);
          setTimeout(() => setDone(false), 2000);
        });
      }}
    >
      {done ? <Check className="size-4" aria-hidden="true" /> : <Copy className="size-4" aria-hidden="true" />}
      {done ? t('mfa.copied') : label}
    </Button>
  );
}

function useCodeSubmit(run: (code: string) => Promise<void>, pattern: (code: string) => boolean) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [expired, setExpired] = useState(false);
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(undefined);
    if (!pattern(code)) {
      setError(localizeMessage(AUTH_MESSAGES.invalidOtp));
      return;
    }
    setBusy(true);
    try {
      await run(code);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'ChallengeExpired') setExpired(true);
      setError(err instanceof ApiError ? err.message : translator(authMessages)('mfa.verifyError', { error: String(err) }));
      setCode('');
    } finally {
      setBusy(false);
    }
  }
  return { code, setCode, error, expired, busy, submit };
}

function ExpiredNotice({ message }: { message: string }) {
  const t = useT(authMessages);
  const reset = useSession((s) => s.reset);
  return (
    <div className="space-y-4">
      <Alert tone="danger">{message}</Alert>
      <Link to="/login" onClick={reset} className="inline-block text-sm font-medium text-brand-700 hover:underline">
        {t('backToSignIn')}
      </Link>
    </div>
  );
}

/** The authenticator key in groups of four, as apps show it; a group never breaks across lines. */
export function KeyGroups({ secret }: { secret: string }) {
  const groups = secret.match(/.{1,4}/g) ?? [];
  return groups.map((group, i) => (
    <Fragment key={i}>
      {i > 0 && ' '}
      <span className="inline-block whitespace-nowrap">{group}</span>
    </Fragment>
  ));
}

export const RECOVERY_FILE_NAME = 'partner-dashboard-recovery-codes.txt';

/**
 * The recovery codes as a text file: who they are for, when they were made, one code a line. In English whatever the
 * screen's language, as the portal's other downloads keep their one machine form.
 */
export function recoveryCodesText(codes: string[], email: string, at: Date): string {
  return [
    'Partner Dashboard recovery codes',
    `Account: ${email}`,
    `Created: ${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
    '',
    'Each code signs you in once instead of an authenticator code. Keep them somewhere safe.',
    '',
    ...codes,
    '',
  ].join('\r\n');
}

function RecoveryCodes({ result, onDone }: { result: AuthResult; onDone: () => void }) {
  const t = useT(authMessages);
  const codes = result.recoveryCodes ?? [];
  const [saved, setSaved] = useState(false);
  return (
    <AuthCard title={t('recovery.title')} subtitle={t('recovery.subtitle')}>
      <ol className="grid grid-cols-2 gap-2 rounded-lg border border-line bg-canvas p-4 font-mono text-sm" aria-label={t('recovery.list')}>
        {codes.map((c) => (
          <li key={c} className="text-center">
            {c}
          </li>
        ))}
      </ol>
      <div className="mt-3 flex flex-wrap justify-end gap-2">
        <Button variant="secondary" size="sm" onClick={() => downloadText(RECOVERY_FILE_NAME, recoveryCodesText(codes, result.user.email, new Date()))}>
          <Download className="size-4" aria-hidden="true" />
          {t('recovery.download')}
        </Button>
        <CopyButton text={codes.join('\n')} label={t('recovery.copy')} />
      </div>
      <label className="mt-5 flex items-start gap-2 text-sm">
        <input type="checkbox" className="mt-0.5 size-4 accent-brand-700" checked={saved} onChange={(e) => setSaved(e.target.checked)} />
        {t('recovery.saved')}
      </label>
      <Button className="mt-5" block size="lg" disabled={!saved} onClick={onDone}>
        {t('recovery.continue')}
      </Button>
    </AuthCard>
  );
}

function MfaSetup() {
  const t = useT(authMessages);
  const navigate = useNavigate();
  const { sessionToken, mfaSecret, otpauthUri, username, currentStep, totalSteps } = useSession();
  const applyAuthResult = useSession((s) => s.applyAuthResult);
  const [result, setResult] = useState<AuthResult>();
  const form = useCodeSubmit(async (userCode) => {
    if (!sessionToken || !username) throw new Error(t('mfa.noSession'));
    setResult(await authApi.verifyToken({ session: sessionToken, userCode, username }));
  }, isCode);

  if (result) {
    return (
      <RecoveryCodes
        result={result}
        onDone={() => {
          applyAuthResult({ ...result, recoveryCodes: undefined });
          void navigate('/', { replace: true });
        }}
      />
    );
  }
  if (!sessionToken || !mfaSecret) return <ExpiredNotice message={translator(commonMessages)('errors.mfaSetupIncomplete')} />;
  const uri = otpauthUri ?? `otpauth://totp/Partner%20Dashboard:${encodeURIComponent(username ?? '')}?secret=${mfaSecret}&issuer=Partner%20Dashboard`;
  return (
    <AuthCard title={t('setup.title')} subtitle={t('setup.subtitle')}>
      <StepIndicator current={currentStep} total={totalSteps} />
      {form.expired ? (
        <ExpiredNotice message={form.error ?? ''} />
      ) : (
        <form onSubmit={(e) => void form.submit(e)} className="space-y-5" noValidate>
          <div className="flex flex-col items-center gap-3 sm:flex-row sm:items-start">
            <QrCode value={uri} label={t('setup.qr')} />
            <div className="min-w-0 flex-1 space-y-2 text-sm">
              <p className="text-muted">{t('setup.cantScan')}</p>
              <code data-testid="mfa-secret" className="block rounded-md bg-canvas px-2 py-1.5 font-mono text-sm tracking-wider break-normal">
                <KeyGroups secret={mfaSecret} />
              </code>
              <CopyButton text={mfaSecret} label={t('setup.copyKey')} />
            </div>
          </div>
          <OtpInput value={form.code} onChange={form.setCode} error={form.error} />
          <Button type="submit" block size="lg" loading={form.busy}>
            {t('setup.submit')}
          </Button>
        </form>
      )}
    </AuthCard>
  );
}

function CodePrompt() {
  const t = useT(authMessages);
  const navigate = useNavigate();
  const { sessionToken, username } = useSession();
  const applyAuthResult = useSession((s) => s.applyAuthResult);
  const [recovery, setRecovery] = useState(false);
  const form = useCodeSubmit(
    async (userCode) => {
      if (!sessionToken || !username) throw new Error(t('mfa.noSession'));
      const res = await authApi.challengeResponse({ session: sessionToken, challengeName: 'SOFTWARE_TOKEN_MFA', username, userCode });
      applyAuthResult(res);
      if (res.recoveryCodesLeft !== undefined) toast.show(localizeMessage(AUTH_MESSAGES.recoveryCodesLeft(res.recoveryCodesLeft)));
      void navigate('/', { replace: true });
    },
    recovery ? isCodeOrRecovery : isCode,
  );

  return (
    <AuthCard
      title={t('prompt.title')}
      subtitle={recovery ? t('prompt.recoveryIntro') : t('prompt.codeIntro')}
      footer={
        <button
          type="button"
          className="font-medium text-brand-700 hover:underline"
          onClick={() => {
            setRecovery(!recovery);
            form.setCode('');
          }}
        >
          {recovery ? t('prompt.useApp') : t('prompt.useRecovery')}
        </button>
      }
    >
      {form.expired ? (
        <ExpiredNotice message={form.error ?? ''} />
      ) : (
        <form onSubmit={(e) => void form.submit(e)} className="space-y-5" noValidate>
          <OtpInput
            value={form.code}
            onChange={form.setCode}
            error={form.error}
            autoFocus
            allowRecovery={recovery}
            label={recovery ? t('prompt.recoveryLabel') : t('prompt.codeLabel')}
          />
          <Button type="submit" block size="lg" loading={form.busy}>
            {t('prompt.submit')}
          </Button>
        </form>
      )}
    </AuthCard>
  );
}

export function TwoFactorScreen() {
  const t = useT(authMessages);
  const challenge = useSession((s) => s.challenge);
  if (challenge === 'MFA_SETUP') return <MfaSetup />;
  if (challenge === 'SOFTWARE_TOKEN_MFA') return <CodePrompt />;
  return <ExpiredNotice message={t('mfa.expired')} />;
}
