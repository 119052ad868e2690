import { workQueue } from '../../jobs/queue-worker.ts';
import type PgBoss from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Network } from '@portal/contract/domain';
import { WALLET_MESSAGES } from '@portal/contract/wallets';
import { bossExecutor } from '../../db/boss-executor.ts';
import type { DB } from '../../db/schema.ts';
import type { WalletService } from './wallets.service.ts';

/**
 * Screening of approved settlement wallets: after its approval a wallet waits here (pending screening) until the
 * screener passes it (enabled) or not (denied, with the reason); its creator is e-mailed either way.
 */
export const WALLET_SCREENING_QUEUE = 'wallet-screening';

export type ScreeningJob = { partnerId: string; walletId: string };
export type ScreeningOutcome = { passed: true } | { passed: false; reason: string };
/** Checks an address against sanctions and fraud lists. */
export type WalletScreener = (wallet: { network: Network; address: string; tag: string | null }) => Promise<ScreeningOutcome>;

/**
 * The screener used when no screening provider is connected: an address on the operator's list
 * (WALLET_SCREENING_BLOCKLIST) fails, any other passes.
 */
export function blocklistScreener(blocklist: string | undefined): WalletScreener {
  const blocked = new Set(
    (blocklist ?? '')
      .split(/[\s,;]+/)
      .filter(Boolean)
      .map((a) => a.toLowerCase()),
  );
  return ({ address }) => Promise.resolve(blocked.has(address.toLowerCase()) ? { passed: false, reason: WALLET_MESSAGES.screeningFailed } : { passed: true });
}

export async function createScreeningQueue(boss: PgBoss) {
  await boss.createQueue(WALLET_SCREENING_QUEUE, { name: WALLET_SCREENING_QUEUE, retryLimit: 5, retryDelay: 30, retryBackoff: true, expireInSeconds: 5 * 60 });
}

/** Queues a wallet's screening on the approval's transaction, `afterSeconds` later. */
export async function enqueueScreening(boss: PgBoss, db: Kysely<DB>, job: ScreeningJob, afterSeconds: number) {
  const id = await boss.send(WALLET_SCREENING_QUEUE, job, { startAfter: afterSeconds, db: bossExecutor(db) });
  if (!id) throw new Error(`the queue ${WALLET_SCREENING_QUEUE} does not exist: start the screening worker once to create it`);
}

export async function screenWallet(service: WalletService, screener: WalletScreener, job: ScreeningJob) {
  const wallet = await service.awaitingScreening(job.partnerId, job.walletId);
  if (!wallet) return undefined;
  const outcome = await screener({ network: wallet.network as Network, address: wallet.address, tag: wallet.tag });
  return service.finishScreening(job.partnerId, job.walletId, outcome);
}

export async function startWalletScreeningWorker(deps: { boss: PgBoss; service: WalletService; screener: WalletScreener; log: FastifyBaseLogger }) {
  await createScreeningQueue(deps.boss);
  workQueue<ScreeningJob>(deps.boss, WALLET_SCREENING_QUEUE, { pollingIntervalSeconds: 1, log: deps.log }, async (job) => {
    const wallet = await screenWallet(deps.service, deps.screener, job.data);
    deps.log.info({ wallet: job.data.walletId, partner: job.data.partnerId, status: wallet?.status }, 'wallet screened');
  });
}
