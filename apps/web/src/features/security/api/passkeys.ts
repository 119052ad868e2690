import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { startRegistration, type PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser';
import { MessageResponse } from '@portal/contract/auth';
import { PASSKEY_MESSAGES, Passkey, PasskeyOptionsResponse, PasskeysResponse } from '@portal/contract/passkeys';
import { api } from '../../../lib/api-client.ts';

const PASSKEYS_KEY = ['me', 'passkeys'] as const;

/** GET me/passkeys: the caller's passkeys. */
export const passkeysQuery = queryOptions({
  queryKey: PASSKEYS_KEY,
  queryFn: async () => (await api.get('me/passkeys', { schema: PasskeysResponse })).passkeys,
  staleTime: 0,
});
export const usePasskeys = () => useQuery(passkeysQuery);

/** Whether this browser can make and use passkeys at all. */
export const passkeysSupported = () => typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';

/** The browser's own refusals (cancelled, timed out, an authenticator already added) in the portal's words. */
export function ceremonyMessage(err: unknown): string {
  const name = err instanceof Error ? ((err as Error & { cause?: { name?: string } }).cause?.name ?? err.name) : '';
  if (name === 'InvalidStateError') return PASSKEY_MESSAGES.alreadyAdded;
  if (name === 'NotAllowedError' || name === 'AbortError') return PASSKEY_MESSAGES.cancelled;
  if (name === 'NotSupportedError') return PASSKEY_MESSAGES.unsupported;
  return err instanceof Error ? err.message : PASSKEY_MESSAGES.notAccepted;
}

/**
 * Adds a passkey: the server's options, the browser's ceremony (the device asks for its PIN or biometrics), then the
 * answer with its name and the e-mailed code. The list and the history are read again.
 */
export function useAddPasskey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ name, otp }: { name: string; otp: string }) => {
      const { ceremony, options } = await api.post('me/passkeys/options', {}, { schema: PasskeyOptionsResponse });
      const credential = await startRegistration({ optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON });
      return api.post('me/passkeys', { ceremony, name, otp, credential }, { schema: Passkey });
    },
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: PASSKEYS_KEY });
      void qc.invalidateQueries({ queryKey: ['security-history'] });
    },
  });
}

export function useRenamePasskey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) => api.put(`me/passkeys/${id}`, { name }, { schema: MessageResponse }),
    onSettled: () => void qc.invalidateQueries({ queryKey: PASSKEYS_KEY }),
  });
}

/** Removes a passkey, confirmed with the authenticator app's code or a recovery code. */
export function useRemovePasskey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, code }: { id: string; code: string }) => api.delete(`me/passkeys/${id}`, { body: { code }, schema: MessageResponse }),
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: PASSKEYS_KEY });
      void qc.invalidateQueries({ queryKey: ['security-history'] });
    },
  });
}
