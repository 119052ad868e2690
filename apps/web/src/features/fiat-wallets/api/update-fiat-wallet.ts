import { useMutation, useQueryClient } from '@tanstack/react-query';
import { FIAT_WALLET_MESSAGES, UpdateFiatWalletResponse, type FiatWallet, type UpdateFiatWalletRequest } from '@portal/contract/fiat-wallets';
import { toast } from '../../../components/ui/toast-store.ts';
import { api } from '../../../lib/api-client.ts';
import { localizeMessage, translator } from '../../../lib/i18n.ts';
import { FIAT_WALLETS_KEY } from '../../../lib/partner/fiat-wallets.ts';
import { useSession } from '../../../lib/session/session-store.ts';
import { fiatWalletsMessages } from '../messages.ts';

/**
 * PUT partner/fiat-wallet (portal-core §7): the switch moves at once, the list is refetched afterwards either way,
 * and a failure shows the §8 message (the same text as a failed fetch) while the refetch puts the switch back.
 */
export function useUpdateFiatWallet() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (body: UpdateFiatWalletRequest) => {
      if (!useSession.getState().user?.token) throw new Error(FIAT_WALLET_MESSAGES.noUserForUpdate);
      return (await api.put('partner/fiat-wallet', body, { schema: UpdateFiatWalletResponse })).fiatWallet;
    },
    onMutate: async (body) => {
      await qc.cancelQueries({ queryKey: FIAT_WALLETS_KEY });
      qc.setQueryData<FiatWallet[]>(FIAT_WALLETS_KEY, (list) =>
        list?.map((w) =>
          w.id === body.id
            ? {
                ...w,
                ...(body.paymentEnabled !== undefined ? { paymentEnabled: body.paymentEnabled } : {}),
                ...(body.collectionEnabled !== undefined ? { collectionEnabled: body.collectionEnabled } : {}),
              }
            : w,
        ),
      );
    },
    onSuccess: (wallet, body) => {
      const t = translator(fiatWalletsMessages);
      const values = { wallet: wallet.currency };
      toast.show(
        body.paymentEnabled !== undefined
          ? t(body.paymentEnabled ? 'toast.paymentsOn' : 'toast.paymentsOff', values)
          : t(body.collectionEnabled ? 'toast.collectionsOn' : 'toast.collectionsOff', values),
      );
    },
    // the contract's messages, in the language in force
    onError: (err) => toast.show(localizeMessage(err.message.startsWith('cannot ') ? err.message : FIAT_WALLET_MESSAGES.fetchFailed(err.message))),
    onSettled: () => qc.invalidateQueries({ queryKey: FIAT_WALLETS_KEY }),
  });
}
