import { WALLET_MESSAGES, WalletResponse, type DeleteWalletRequest } from '@portal/contract/wallets';
import { api } from '../../../lib/api-client.ts';
import { prefixed, useWalletMutation } from './wallet-mutation.ts';

/** DELETE partner/wallet/{address}: one of the four reasons and the e-mailed code. */
export const useDeleteWallet = () =>
  useWalletMutation(({ address, ...body }: DeleteWalletRequest & { address: string }) =>
    api.delete(`partner/wallet/${encodeURIComponent(address)}`, { body, schema: WalletResponse }).catch(prefixed(WALLET_MESSAGES.deleteFailed)),
  );
