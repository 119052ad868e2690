import { NETWORKS, type Network } from '@portal/contract/domain';
import type { Config } from '../../config.ts';
import {
  XPUB_FAMILIES,
  deriveAddress,
  generateDemoAddress,
  parseExtendedPublicKey,
  xpubFamilyOf,
  type ExtendedPublicKey,
  type XpubFamily,
} from '../../lib/deposit-addresses.ts';
import { claimPoolAddress, freePoolCounts, nextDerivationIndex, takeDerivationIndex, type AddressSource } from './deposit-addresses.repository.ts';
import type { Executor } from './partners.repository.ts';

/** An address a source hands out, with what is recorded of where it came from. */
export type TakenAddress = {
  address: string;
  tag: string | null;
  source: AddressSource;
  derivationKey?: string;
  derivationIndex?: number;
};

/**
 * Where deposit addresses come from. A source gives an address inside the caller's transaction, so that a failed
 * assignment gives it back; it answers undefined when it has none for the network.
 */
export interface DepositAddressSource {
  readonly kind: AddressSource;
  /** the networks on which `take` would give an address now */
  available(db: Executor): Promise<Set<Network>>;
  take(trx: Executor, network: Network, partnerId: string, at: Date): Promise<TakenAddress | undefined>;
}

/** Addresses derived from the operator's extended public keys: `<key>/0/<index>`, each index given once. */
export function xpubSource(keys: ExtendedPublicKey[]): DepositAddressSource {
  const byFamily = new Map<XpubFamily, ExtendedPublicKey>(keys.map((k) => [k.family, k]));
  const networks = new Set(NETWORKS.filter((n) => byFamily.has(xpubFamilyOf(n)!)));
  return {
    kind: 'xpub',
    available: () => Promise.resolve(networks),
    async take(trx, network) {
      const family = xpubFamilyOf(network);
      const key = family ? byFamily.get(family) : undefined;
      if (!key) return undefined;
      const index = await takeDerivationIndex(trx, key.keyId);
      return { address: deriveAddress(key, network, index), tag: null, source: 'xpub', derivationKey: key.keyId, derivationIndex: index };
    },
  };
}

/** Addresses the operator imported (`import-addresses`), oldest first; each goes to one partner only. */
export function poolSource(): DepositAddressSource {
  return {
    kind: 'pool',
    async available(db) {
      const free = await freePoolCounts(db);
      return new Set(NETWORKS.filter((n) => (free[n] ?? 0) > 0));
    },
    async take(trx, network, partnerId, at) {
      const row = await claimPoolAddress(trx, network, partnerId, at);
      return row ? { address: row.address, tag: row.tag, source: 'pool' } : undefined;
    },
  };
}

/** Random addresses whose private key nobody has: for the demo only, where they are marked as such. */
export function demoSource(): DepositAddressSource {
  const all = new Set<Network>(NETWORKS);
  return {
    kind: 'demo',
    available: () => Promise.resolve(all),
    take: (_trx, network) => Promise.resolve({ ...generateDemoAddress(network), source: 'demo' }),
  };
}

/** The operator keys the configuration names (each checked at start by the config's schema). */
export function configuredKeys(config: Pick<Config, 'DEPOSIT_XPUB_EVM' | 'DEPOSIT_XPUB_TRON' | 'DEPOSIT_XPUB_BTC'>): ExtendedPublicKey[] {
  const text: Record<XpubFamily, string | undefined> = { EVM: config.DEPOSIT_XPUB_EVM, TRON: config.DEPOSIT_XPUB_TRON, BTC: config.DEPOSIT_XPUB_BTC };
  return XPUB_FAMILIES.flatMap((family) => (text[family] ? [parseExtendedPublicKey(family, text[family])] : []));
}

export type DepositAddressProvider = {
  /** the networks on which an address can be assigned now */
  available(db: Executor): Promise<Set<Network>>;
  /** the first address a source gives for the network, or undefined when none has one */
  take(trx: Executor, network: Network, partnerId: string, at: Date): Promise<TakenAddress | undefined>;
  /** per network, where its addresses come from: for the operator */
  describe(db: Executor): Promise<{ network: Network; source: string }[]>;
};

/**
 * The sources in order: the operator's keys, then the imported pool, then (with DEMO on only) made-up demo
 * addresses. Outside the demo, a network with neither key nor pool gets no address: none is ever invented.
 * `testData`: made-up addresses only, for a partner's test data (migration 0044), never a key's or the pool's.
 */
export function createDepositAddressProvider(
  config: Pick<Config, 'demo' | 'DEPOSIT_XPUB_EVM' | 'DEPOSIT_XPUB_TRON' | 'DEPOSIT_XPUB_BTC'>,
  options: { testData?: boolean } = {},
): DepositAddressProvider {
  const keys = options.testData ? [] : configuredKeys(config);
  const sources = options.testData ? [demoSource()] : [xpubSource(keys), poolSource(), ...(config.demo ? [demoSource()] : [])];
  return {
    async available(db) {
      const out = new Set<Network>();
      for (const s of sources) for (const n of await s.available(db)) out.add(n);
      return out;
    },
    async take(trx, network, partnerId, at) {
      for (const s of sources) {
        const taken = await s.take(trx, network, partnerId, at);
        if (taken) return taken;
      }
      return undefined;
    },
    async describe(db) {
      const free = await freePoolCounts(db);
      const out: { network: Network; source: string }[] = [];
      for (const network of NETWORKS) {
        const key = keys.find((k) => k.family === xpubFamilyOf(network));
        if (key) {
          const next = await nextDerivationIndex(db, key.keyId);
          out.push({ network, source: `${key.family} key ${key.fingerprint}${key.bitcoinKind ? ` (${key.bitcoinKind})` : ''}, next index ${next}` });
        } else if ((free[network] ?? 0) > 0) out.push({ network, source: `pool, ${free[network]} free` });
        else if (config.demo) out.push({ network, source: 'demo addresses (DEMO on): do not send funds' });
        else out.push({ network, source: 'none: no key configured and no free pool address' });
      }
      return out;
    },
  };
}
