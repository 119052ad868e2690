import { PASSKEY_MESSAGES } from '@portal/contract/passkeys';
import { localizeMessage } from './i18n.ts';

/** Whether this browser can make and use passkeys at all. */
export const passkeysSupported = () => typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';

/**
 * The browser's own refusals of a passkey prompt (closed, timed out, an authenticator already added, no support) in
 * the portal's words; undefined for any other error (the caller says what it says then). The WebAuthn library wraps
 * the browser's error: its name is the cause's.
 */
export function ceremonyMessage(err: unknown): string | undefined {
  const name = err instanceof Error ? ((err as Error & { cause?: { name?: string } }).cause?.name ?? err.name) : '';
  if (name === 'InvalidStateError') return localizeMessage(PASSKEY_MESSAGES.alreadyAdded);
  if (name === 'NotAllowedError' || name === 'AbortError') return localizeMessage(PASSKEY_MESSAGES.cancelled);
  if (name === 'NotSupportedError') return localizeMessage(PASSKEY_MESSAGES.unsupported);
  return undefined;
}
