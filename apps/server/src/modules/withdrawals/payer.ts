import crypto from 'node:crypto';
import type { Network } from '@portal/contract/domain';

/** What the processing job asks of whatever sends coins on chain (the provider's custody or hot wallet). */
export type SettlementPayer = {
  /** Sends `amount` of `coin` to the address; the transaction's hash, or why it could not be sent. */
  send(payout: {
    settlementId: string;
    network: Network;
    coin: string;
    amount: string;
    address: string;
    tag: string | null;
  }): Promise<{ ok: true; transactionHash: string; fromAddress: string } | { ok: false; reason: string }>;
  /** Whether the sent transaction settled; false when the chain refused it. */
  confirm(payout: { settlementId: string; network: Network; transactionHash: string }): Promise<{ ok: true } | { ok: false; reason: string }>;
};

/**
 * The payer used when no chain is connected (development, demo, tests): it records a transaction hash derived from
 * the settlement id, shaped like the network's, and every payout settles. Nothing is sent anywhere.
 */
export const simulatedPayer: SettlementPayer = {
  send({ settlementId, network }) {
    const digest = crypto.createHash('sha256').update(`simulated:${settlementId}`).digest('hex');
    const transactionHash = ['ERC20', 'POLYGON', 'BASE', 'CELO'].includes(network) ? `0x${digest}` : digest;
    return Promise.resolve({ ok: true, transactionHash, fromAddress: `simulated-${network.toLowerCase()}-hot-wallet` });
  },
  confirm() {
    return Promise.resolve({ ok: true });
  },
};
