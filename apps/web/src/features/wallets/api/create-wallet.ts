import { WALLET_MESSAGES, WalletResponse, type CreateWalletRequest } from '@portal/contract/wallets';
import { api } from '../../../lib/api-client.ts';
import { prefixed, useWalletMutation } from './wallet-mutation.ts';

/** POST partner/wallet: a new wallet (with the e-mailed code), pending another person's approval. */
export const useCreateWallet = () =>
  useWalletMutation((input: CreateWalletRequest) =>
    api.post('partner/wallet', input, { schema: WalletResponse }).catch(prefixed(WALLET_MESSAGES.createFailed)),
  );
