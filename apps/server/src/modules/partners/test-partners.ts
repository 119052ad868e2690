import crypto from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { PARTNER_MESSAGES } from '@portal/contract/partner';
import type { DB } from '../../db/schema.ts';
import { copyLiveSetUp, findTestPartner, insertTestPartner, lockPartner } from './test-partners.repository.ts';
import { notFound } from '../../lib/errors.ts';

/**
 * A partner's test side (migration 0044): a partner of its own, so that every wall between partners is also the wall
 * between a partner's live and test data. The partners module's port for the modules that make test data reachable
 * (an API key made for test, the portal's test view).
 */
export type TestPartners = {
  /**
   * The id of the partner's test partner, made on first need: its currency accounts (at zero), local wallets and
   * enabled countries copied from the live partner as they are now. The id itself when it is a test partner.
   */
  testPartnerOf(livePartnerId: string): Promise<string>;
};

/** What making a test partner needs of the ledger module: the live partner's accounts, and opening the same on the test side. */
export type TestSideAccounts = {
  balances(partnerId: string, within: Transaction<DB>): Promise<{ currency: string }[]>;
  open(trx: Transaction<DB>, partnerId: string, currency: string): Promise<void>;
};

export function createTestPartners(db: Kysely<DB>, accounts: TestSideAccounts): TestPartners {
  // a test partner's id never changes once made: each account's is read once per process (one entry per account)
  const known = new Map<string, string>();

  async function findOrMake(livePartnerId: string): Promise<string> {
    const found = await findTestPartner(db, livePartnerId);
    if (found) return found.id;
    return db.transaction().execute(async (trx) => {
      const live = await lockPartner(trx, livePartnerId);
      if (!live) throw notFound(PARTNER_MESSAGES.noSuchPartner);
      if (live.live_partner_id !== null) return live.id;
      const made = await findTestPartner(trx, livePartnerId);
      if (made) return made.id;
      const id = crypto.randomUUID();
      await insertTestPartner(trx, live, id);
      for (const { currency } of await accounts.balances(live.id, trx)) await accounts.open(trx, id, currency);
      await copyLiveSetUp(trx, live.id, id);
      return id;
    });
  }

  return {
    async testPartnerOf(livePartnerId) {
      const id = known.get(livePartnerId) ?? (await findOrMake(livePartnerId));
      known.set(livePartnerId, id);
      return id;
    },
  };
}
