import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { startRegistration, type PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser';
import { MessageResponse } from '@portal/contract/auth';
import { Passkey, PasskeyOptionsResponse, PasskeysResponse } from '@portal/contract/passkeys';
import { api } from '../../../lib/api-client.ts';

const PASSKEYS_KEY = ['me', 'passkeys'] as const;

/** GET me/passkeys: the caller's passkeys. */
export const passkeysQuery = queryOptions({
  queryKey: PASSKEYS_KEY,
  queryFn: async () => (await api.get('me/passkeys', { schema: PasskeysResponse })).passkeys,
  staleTime: 0,
});
export const usePasskeys = () => useQuery(passkeysQuery);

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
