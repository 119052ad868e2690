import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Coin, Network } from '@portal/contract/domain';
import { SettlementFeeResponse } from '@portal/contract/settlements';
import { api } from '../../../lib/api-client.ts';

/** GET partner/settlement/fee: the network fee of a withdrawal, with the rate and what arrives. */
export function useSettlementFee(q: { amount: string; coin: Coin; network: Network } | null) {
  return useQuery({
    queryKey: ['partner', 'settlement-fee', q],
    queryFn: () =>
      api.get(
        `partner/settlement/fee?${new URLSearchParams({ amount: q!.amount, cryptoAmount: q!.amount, cryptoCurrency: q!.coin, cryptoNetwork: q!.network })}`,
        { schema: SettlementFeeResponse },
      ),
    enabled: q !== null,
    placeholderData: keepPreviousData,
  });
}
