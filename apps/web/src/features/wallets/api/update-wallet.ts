import { WALLET_MESSAGES, WalletResponse, type UpdateWalletRequest } from '@portal/contract/wallets';
import { api } from '../../../lib/api-client.ts';
import { prefixed, useWalletMutation } from './wallet-mutation.ts';

/** PUT partner/wallet: enable (with the e-mailed code) or disable. */
export const useUpdateWallet = () =>
  useWalletMutation((input: UpdateWalletRequest) => api.put('partner/wallet', input, { schema: WalletResponse }).catch(prefixed(WALLET_MESSAGES.updateFailed)));
