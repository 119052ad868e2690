import { WALLET_MESSAGES, WalletResponse, type WalletStatusUpdateRequest } from '@portal/contract/wallets';
import { api } from '../../../lib/api-client.ts';
import { prefixed, useWalletMutation } from './wallet-mutation.ts';

/** PUT partner/wallet/status: the second person's approval or denial. */
export const useReviewWallet = () =>
  useWalletMutation((input: WalletStatusUpdateRequest) =>
    api.put('partner/wallet/status', input, { schema: WalletResponse }).catch(prefixed(WALLET_MESSAGES.statusFailed)),
  );
