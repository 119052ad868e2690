import type { Network } from '@portal/contract/domain';
import { toEip55, validateAddress, xpubFamilyOf } from './deposit-addresses.ts';

/**
 * Partners' own wallet addresses (settlement wallets), checked with the same encodings and checksums as the deposit
 * addresses (`deposit-addresses.ts`), and written the one way each chain reads them, so that one address cannot
 * be registered twice under two spellings.
 */

const EVM = new Set<Network>(['ERC20', 'POLYGON', 'BASE', 'CELO']);

/**
 * The address as stored, or null when it is not a valid address of the network. An EVM address written all in
 * lower or upper case carries no checksum (EIP-55) and is accepted and written checksummed; a mixed-case one must
 * carry the right checksum. A Bitcoin SegWit address is stored in lower case.
 */
export function normaliseWalletAddress(network: Network, raw: string): string | null {
  const text = raw.trim();
  if (EVM.has(network)) {
    if (!/^0x[0-9a-fA-F]{40}$/.test(text)) return null;
    const hex = text.slice(2);
    const candidate = hex === hex.toLowerCase() || hex === hex.toUpperCase() ? toEip55(`0x${hex.toLowerCase()}`) : text;
    return validateAddress(network, candidate) ? candidate : null;
  }
  if (!validateAddress(network, text)) return null;
  return network === 'BTC' && /^bc1/i.test(text) ? text.toLowerCase() : text;
}

/**
 * The key under which an address belongs to one partner: the account as the chain knows it. One EVM account is the
 * same on every EVM network; a Stellar account shared by an exchange's customers is told apart by its memo.
 */
export function addressKey(network: Network, address: string, tag: string | null): string {
  const family = xpubFamilyOf(network) ?? network;
  if (family === 'EVM') return `EVM:${address.toLowerCase()}`;
  if (network === 'XLM') return `XLM:${address}${tag ? `:${tag}` : ''}`;
  return `${family}:${address}`;
}

const MAX_MEMO_ID = 2n ** 64n - 1n;

/**
 * The memo (tag) of a settlement wallet: only Stellar takes one, and there it is optional (an own account needs
 * none; an exchange's shared account needs the memo it gave): a memo id (1 to 2^64-1) or a text of up to 28 bytes.
 * Returns the problem, or null.
 */
export function walletTagProblem(network: Network, tag: string | null): string | null {
  if (tag === null) return null;
  if (network !== 'XLM') return `A ${network} address takes no tag or memo`;
  if (/^\d+$/.test(tag)) return BigInt(tag) >= 1n && BigInt(tag) <= MAX_MEMO_ID ? null : 'A memo id is a whole number from 1 to 18446744073709551615';
  return Buffer.byteLength(tag, 'utf8') <= 28 ? null : 'A text memo has at most 28 bytes';
}
