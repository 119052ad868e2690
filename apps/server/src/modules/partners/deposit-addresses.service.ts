import type { Kysely } from 'kysely';
import { CURRENCY_NETWORK_IDS, splitCurrencyNetwork, type CurrencyNetworkId, type Network } from '@portal/contract/domain';
import { currencyNetworkFor, type AssignDepositAddressRequest, type DepositAddress, PARTNER_MESSAGES } from '@portal/contract/partner';
import type { Config } from '../../config.ts';
import type { DB } from '../../db/schema.ts';
import { auditChange } from '../../lib/audit.repository.ts';
import { tagProblem, validateAddress } from '../../lib/deposit-addresses.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import { actorOf, hasAccess, isTestCaller, requireAccess, type AccessRule, type Caller } from '../../lib/access.ts';
import { createDepositAddressProvider, type DepositAddressProvider } from './deposit-address-sources.ts';
import {
  deleteDemoAddress,
  findAddress,
  insertAddress,
  insertPoolAddresses,
  knownAddresses,
  listAddresses,
  lockAssignment,
  type AddressRow,
} from './deposit-addresses.repository.ts';

export const ADDRESS_NOT_FOUND = 'Address not found';

/** Who may ask for a deposit address: the users who move money, and API keys that may write. */
const ASSIGN: AccessRule = { action: 'assignDepositAddresses', permission: 'api_write' };

const toAddress = (r: AddressRow): DepositAddress => ({
  id: r.id,
  currencyNetwork: r.currency_network,
  cryptocurrency: r.cryptocurrency,
  network: r.network,
  address: r.address,
  tag: r.tag,
  status: r.status as DepositAddress['status'],
  demo: r.source === 'demo',
});

/** The partner asked for an address that another request of the same partner assigned first: roll back, read that one. */
class AssignedMeanwhile extends Error {}

/** One line of an import file that cannot go into the pool. */
export type ImportProblem = { line: number; text: string; problem: string };
export class ImportRefused extends Error {
  constructor(readonly problems: ImportProblem[]) {
    super(`${problems.length} line(s) refused, nothing imported`);
  }
}

/**
 * Deposit addresses: reading them never writes; assigning one is a command (POST partner/addresses, or the
 * operator's `assign-address`) that takes the address from the provider (operator key, imported pool, or, with
 * DEMO on only, a marked demo address). Outside the demo, demo addresses are neither shown nor kept: a real one
 * replaces them.
 */
export function createDepositAddressService(deps: {
  db: Kysely<DB>;
  config: Pick<Config, 'demo' | 'DEPOSIT_XPUB_EVM' | 'DEPOSIT_XPUB_TRON' | 'DEPOSIT_XPUB_BTC'>;
  now: () => number;
  provider?: DepositAddressProvider;
}) {
  const { db } = deps;
  const liveProvider = deps.provider ?? createDepositAddressProvider(deps.config);
  // test data (a test key's, the portal's test view) gets made-up addresses, marked as such, whatever the deployment:
  // never one that can receive real funds
  const testProvider = createDepositAddressProvider(deps.config, { testData: true });
  /** Where a side's addresses come from, and whether its made-up ones are shown. */
  const sideOf = (test: boolean) => ({ provider: test ? testProvider : liveProvider, includeDemo: deps.config.demo || test });

  async function assignTo(partnerId: string, currencyNetwork: CurrencyNetworkId, actor: { actorUserId: string | null; actor: string }, test = false) {
    const { provider, includeDemo } = sideOf(test);
    const existing = await findAddress(db, partnerId, currencyNetwork, { includeDemo });
    if (existing) return { address: toAddress(existing), created: false };
    const { coin, network } = splitCurrencyNetwork(currencyNetwork);
    try {
      return await db.transaction().execute(async (trx) => {
        await lockAssignment(trx, partnerId, currencyNetwork);
        // a request that held the lock before this one may have assigned it
        const assigned = await findAddress(trx, partnerId, currencyNetwork, { includeDemo });
        if (assigned) return { address: toAddress(assigned), created: false };
        const at = new Date(deps.now());
        const replaced = includeDemo ? undefined : await deleteDemoAddress(trx, partnerId, currencyNetwork);
        const taken = await provider.take(trx, network, partnerId, at);
        if (!taken) throw conflict(PARTNER_MESSAGES.noDepositAddress(coin, network));
        // a source that gives a malformed address is a bug: nobody must be shown it
        if (!validateAddress(network, taken.address) || tagProblem(network, taken.tag)) {
          throw new Error(`the ${taken.source} source gave an invalid ${network} address: ${taken.address} ${taken.tag ?? ''}`);
        }
        const inserted = await insertAddress(trx, { partnerId, currencyNetwork, cryptocurrency: coin, network, ...taken });
        if (!inserted) throw new AssignedMeanwhile();
        await auditChange(trx, {
          partnerId,
          ...actor,
          action: 'deposit_address.assigned',
          target: inserted.id,
          details: {
            currencyNetwork,
            address: taken.address,
            tag: taken.tag,
            source: taken.source,
            derivationIndex: taken.derivationIndex ?? null,
            replacedDemoAddress: replaced?.address ?? null,
          },
        });
        return { address: toAddress(inserted), created: true };
      });
    } catch (err) {
      // a guard: the lock makes this unlikely; what was taken from a source went back with the rollback
      if (!(err instanceof AssignedMeanwhile)) throw err;
      const row = await findAddress(db, partnerId, currencyNetwork, { includeDemo });
      if (!row) throw err;
      return { address: toAddress(row), created: false };
    }
  }

  return {
    /** The caller's addresses, and the currency networks for which it may get one now (admin, treasury, or a key with api_write). Reads only. */
    async list(auth: Caller) {
      const { provider, includeDemo } = sideOf(isTestCaller(auth));
      const rows = await listAddresses(db, auth.partnerId, { includeDemo });
      let assignable: CurrencyNetworkId[] = [];
      if (hasAccess(auth, ASSIGN)) {
        const available = await provider.available(db);
        const have = new Set(rows.map((r) => r.currency_network));
        assignable = CURRENCY_NETWORK_IDS.filter((id) => !have.has(id) && available.has(splitCurrencyNetwork(id).network));
      }
      return { addresses: rows.map(toAddress), assignable };
    },

    /** The caller's address for a currency network, or 404 'Address not found'. Reads only. */
    async get(auth: Caller, currencyNetwork: CurrencyNetworkId) {
      const row = await findAddress(db, auth.partnerId, currencyNetwork, { includeDemo: sideOf(isTestCaller(auth)).includeDemo });
      if (!row) throw notFound(ADDRESS_NOT_FOUND);
      return toAddress(row);
    },

    /** POST partner/addresses: the caller's partner gets its address for the coin and network (kept if it has one). */
    async assign(auth: Caller, input: AssignDepositAddressRequest) {
      requireAccess(auth, ASSIGN);
      const currencyNetwork = currencyNetworkFor(input.currency, input.network);
      if (!currencyNetwork) throw badRequest(PARTNER_MESSAGES.notOffered(input.currency, input.network), 'ValidationFailed');
      return assignTo(auth.partnerId, currencyNetwork, actorOf(auth), isTestCaller(auth));
    },

    /** The operator's `assign-address`. */
    assignForOperator(partnerId: string, currencyNetwork: CurrencyNetworkId) {
      return assignTo(partnerId, currencyNetwork, { actorUserId: null, actor: 'operator' });
    },

    /**
     * The operator's `import-addresses`: one address per line (for Stellar, the address and its memo id), blank
     * lines and # comments skipped. Every address must pass its network's checks, or nothing is imported; one
     * already in the pool or given to a partner is skipped, so importing a file twice adds nothing.
     */
    async importPool(network: Network, text: string) {
      const problems: ImportProblem[] = [];
      const entries = new Map<string, { address: string; tag: string | null }>();
      text.split(/\r?\n/).forEach((raw, i) => {
        const line = raw.replace(/#.*$/, '').trim();
        if (!line) return;
        const [address = '', tag = null, ...extra] = line.split(/[\s,;]+/);
        const problem =
          extra.length > 0
            ? 'more than an address and a memo'
            : !validateAddress(network, address)
              ? `not a valid ${network} address (format or checksum)`
              : tagProblem(network, tag);
        if (problem) problems.push({ line: i + 1, text: raw.trim(), problem });
        else entries.set(`${address}|${tag ?? ''}`, { address, tag });
      });
      if (problems.length > 0) throw new ImportRefused(problems);
      return db.transaction().execute(async (trx) => {
        const known = await knownAddresses(trx, network, [...new Set([...entries.values()].map((e) => e.address))]);
        const fresh = [...entries].filter(([k]) => !known.has(k)).map(([, e]) => e);
        const added = await insertPoolAddresses(trx, network, fresh);
        return { added, skipped: entries.size - added };
      });
    },

    provider: liveProvider,
  };
}

export type DepositAddressService = ReturnType<typeof createDepositAddressService>;
