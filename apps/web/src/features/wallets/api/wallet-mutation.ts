import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { WalletResponse } from '@portal/contract/wallets';
import { ApiError } from '../../../lib/api-client.ts';
import { walletsQuery } from '../../../lib/partner/settlement-wallets.ts';

/** The server's message behind the catalogue's prefix (portal-core §8), the code kept for the screens. */
export const prefixed = (prefix: string) => (err: unknown) => {
  if (err instanceof ApiError) throw new ApiError(err.status, err.code, `${prefix}${err.message}`, err.requestId);
  throw err;
};

/** Every wallet change reloads the list (portal-core §7: "on success the related lists are reloaded"). */
export function useWalletMutation<T>(run: (input: T) => Promise<WalletResponse>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: run, onSuccess: () => qc.invalidateQueries({ queryKey: walletsQuery.queryKey }) });
}
