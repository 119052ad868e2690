import crypto from 'node:crypto';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { base32nopad, base58, bech32, bech32m, createBase58check } from '@scure/base';
import { HDKey } from '@scure/bip32';
import type { Network } from '@portal/contract/domain';

/**
 * Deposit addresses: their encodings and checksums per network, public HD derivation from an operator's extended
 * public key, and random addresses for the demo.
 *
 * Only the public half of any key is ever here: the operator keeps the private keys (in a wallet or with a
 * custodian); the server derives the addresses from the extended public key the operator configures.
 */

const sha256 = (data: Uint8Array) => new Uint8Array(crypto.createHash('sha256').update(data).digest());
const hash160 = (data: Uint8Array) => ripemd160(sha256(data));
const base58check = createBase58check(sha256);
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/** EIP-55: a hex digit is upper-case where the matching nibble of keccak256(lower-case address) is 8 or more. */
export function toEip55(address: string): string {
  const lower = address.toLowerCase().replace(/^0x/, '');
  const hash = hex(keccak_256(new TextEncoder().encode(lower)));
  return `0x${[...lower].map((c, i) => (parseInt(hash[i]!, 16) >= 8 ? c.toUpperCase() : c)).join('')}`;
}

function crc16xmodem(bytes: Uint8Array): number {
  let crc = 0;
  for (const b of bytes) {
    crc ^= b << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

/** Stellar StrKey of an ed25519 public key: version byte 6<<3 ('G'), key, CRC16-XModem little-endian, base32. */
function stellarAccount(key: Uint8Array): string {
  const payload = new Uint8Array([6 << 3, ...key]);
  const crc = crc16xmodem(payload);
  return base32nopad.encode(new Uint8Array([...payload, crc & 0xff, crc >> 8]));
}

function ed25519PublicKey(): Uint8Array {
  const { publicKey } = crypto.generateKeyPairSync('ed25519');
  return new Uint8Array(publicKey.export({ format: 'der', type: 'spki' }).subarray(-32));
}

// ---- addresses of a secp256k1 public key (33 bytes, compressed)

/** The 20 bytes an Ethereum-style account is: keccak256 of the uncompressed key without its 0x04 prefix, last 20. */
function ethereumAccount(publicKey: Uint8Array): Uint8Array {
  const uncompressed = secp256k1.Point.fromBytes(publicKey).toBytes(false);
  return keccak_256(uncompressed.subarray(1)).subarray(-20);
}

/** EVM chains (Ethereum, Polygon, Base, Celo): 0x + the account in EIP-55 case. */
export const evmAddress = (publicKey: Uint8Array) => toEip55(`0x${hex(ethereumAccount(publicKey))}`);

/** TRON: the same account as Ethereum, prefixed 0x41, in base58check ('T...'). */
export const tronAddress = (publicKey: Uint8Array) => base58check.encode(new Uint8Array([0x41, ...ethereumAccount(publicKey)]));

/** The three Bitcoin address kinds an account key can stand for (BIP44 xpub, BIP49 ypub, BIP84 zpub). */
export type BitcoinAddressKind = 'p2pkh' | 'p2sh-p2wpkh' | 'p2wpkh';

export function bitcoinAddress(publicKey: Uint8Array, kind: BitcoinAddressKind): string {
  const keyHash = hash160(publicKey);
  switch (kind) {
    case 'p2pkh':
      return base58check.encode(new Uint8Array([0x00, ...keyHash]));
    case 'p2sh-p2wpkh':
      return base58check.encode(new Uint8Array([0x05, ...hash160(new Uint8Array([0x00, 0x14, ...keyHash]))]));
    case 'p2wpkh':
      return bech32.encode('bc', [0, ...bech32.toWords(keyHash)]);
  }
}

// ---- extended public keys

/** Key families: one extended public key each; the EVM one serves Ethereum, Polygon, Base and Celo alike. */
export const XPUB_FAMILIES = ['EVM', 'TRON', 'BTC'] as const;
export type XpubFamily = (typeof XPUB_FAMILIES)[number];

/** The family whose extended public key gives addresses on a network; null for networks served from the pool. */
export function xpubFamilyOf(network: Network): XpubFamily | null {
  switch (network) {
    case 'ERC20':
    case 'POLYGON':
    case 'BASE':
    case 'CELO':
      return 'EVM';
    case 'TRC20':
      return 'TRON';
    case 'BTC':
      return 'BTC';
    case 'SOL':
    case 'XLM':
      return null;
  }
}

/** SLIP-132 version bytes of mainnet extended keys. */
const PUBLIC_VERSIONS = { xpub: 0x0488b21e, ypub: 0x049d7cb2, zpub: 0x04b24746 } as const;
const PRIVATE_VERSIONS = { xpub: 0x0488ade4, ypub: 0x049d7878, zpub: 0x04b2430c } as const;
const PRIVATE_OR_TESTNET: Record<number, string> = {
  [PRIVATE_VERSIONS.xpub]: 'an extended private key (xprv)',
  [PRIVATE_VERSIONS.ypub]: 'an extended private key (yprv)',
  [PRIVATE_VERSIONS.zpub]: 'an extended private key (zprv)',
  0x04358394: 'a testnet private key (tprv)',
  0x043587cf: 'a testnet key (tpub)',
  0x044a5262: 'a testnet key (upub)',
  0x045f1cf6: 'a testnet key (vpub)',
};

export type ExtendedPublicKey = {
  family: XpubFamily;
  /** what the key is known by in the database: the family and the hash160 of its public key */
  keyId: string;
  /** the BIP32 fingerprint, as wallets show it (8 hex digits) */
  fingerprint: string;
  /** BTC only: which address kind the key's version stands for */
  bitcoinKind: BitcoinAddressKind | null;
  /** the external chain (`<key>/0`) from which addresses are derived */
  receiving: HDKey;
};

export class ExtendedKeyError extends Error {}

/**
 * Reads an operator's account-level extended public key for a family. Refuses private keys (the server must
 * never hold one), testnet keys, and kinds the family cannot use (EVM and TRON take an xpub; BTC an xpub for
 * legacy 1... addresses, a ypub for 3... or a zpub for native SegWit bc1q...).
 */
export function parseExtendedPublicKey(family: XpubFamily, text: string): ExtendedPublicKey {
  let version: number;
  try {
    const raw = base58check.decode(text.trim());
    if (raw.length !== 78) throw new Error('length');
    version = new DataView(raw.buffer, raw.byteOffset, 4).getUint32(0);
  } catch {
    throw new ExtendedKeyError('is not an extended public key (xpub...): its checksum or length is wrong');
  }
  const refused = PRIVATE_OR_TESTNET[version];
  if (refused) throw new ExtendedKeyError(`is ${refused}: give the mainnet extended public key; the server never holds a private key`);
  const kind = (Object.keys(PUBLIC_VERSIONS) as (keyof typeof PUBLIC_VERSIONS)[]).find((k) => PUBLIC_VERSIONS[k] === version);
  if (!kind) throw new ExtendedKeyError('is not a mainnet extended public key (xpub...)');
  if (family !== 'BTC' && kind !== 'xpub') throw new ExtendedKeyError(`must be an xpub: a ${kind} is for Bitcoin`);
  let key: HDKey;
  try {
    key = HDKey.fromExtendedKey(text.trim(), { public: version, private: PRIVATE_VERSIONS[kind] });
  } catch (err) {
    throw new ExtendedKeyError(`is not a valid extended public key (${err instanceof Error ? err.message : 'unreadable'})`);
  }
  if (key.privateKey || !key.publicKey) throw new ExtendedKeyError('must be an extended public key');
  const bitcoinKind: BitcoinAddressKind | null = family !== 'BTC' ? null : kind === 'xpub' ? 'p2pkh' : kind === 'ypub' ? 'p2sh-p2wpkh' : 'p2wpkh';
  return {
    family,
    keyId: `${family}:${hex(key.identifier!)}`,
    fingerprint: key.fingerprint.toString(16).padStart(8, '0'),
    bitcoinKind,
    receiving: key.deriveChild(0),
  };
}

/** Largest non-hardened child index (BIP32): public derivation cannot go past it. */
export const MAX_DERIVATION_INDEX = 0x7fffffff;

/** The address at `<key>/0/<index>` on a network of the key's family (BIP44 external chain). */
export function deriveAddress(key: ExtendedPublicKey, network: Network, index: number): string {
  if (xpubFamilyOf(network) !== key.family) throw new Error(`a ${key.family} key gives no ${network} address`);
  if (!Number.isInteger(index) || index < 0 || index > MAX_DERIVATION_INDEX) throw new Error(`derivation index out of range: ${index}`);
  const publicKey = key.receiving.deriveChild(index).publicKey!;
  switch (key.family) {
    case 'EVM':
      return evmAddress(publicKey);
    case 'TRON':
      return tronAddress(publicKey);
    case 'BTC':
      return bitcoinAddress(publicKey, key.bitcoinKind!);
  }
}

// ---- demo addresses

/**
 * A random address, valid for its network, for the demo ONLY: the private half of its key is thrown away, so
 * whatever is sent to it is lost. Never handed out outside the demo.
 */
export function generateDemoAddress(network: Network): { address: string; tag: string | null } {
  const address = network === 'SOL' || network === 'XLM' ? demoAddressOf(network, ed25519PublicKey()) : demoAddressOf(network, crypto.randomBytes(32));
  return { address, tag: network === 'XLM' ? String(crypto.randomInt(100_000_000, 4_000_000_000)) : null };
}

/**
 * The address of the network that 32 given bytes make (the first 20 for the account-hash networks), valid for its
 * network: for the demo's history, where the same seed must give the same rows. No key is behind it.
 */
export function demoAddressOf(network: Network, bytes: Uint8Array): string {
  const key20 = new Uint8Array(bytes.subarray(0, 20));
  switch (network) {
    case 'TRC20':
      return base58check.encode(new Uint8Array([0x41, ...key20]));
    case 'ERC20':
    case 'POLYGON':
    case 'BASE':
    case 'CELO':
      return toEip55(`0x${hex(key20)}`);
    case 'BTC':
      return base58check.encode(new Uint8Array([0x00, ...key20]));
    case 'SOL':
      return base58.encode(new Uint8Array(bytes.subarray(0, 32)));
    case 'XLM':
      return stellarAccount(new Uint8Array(bytes.subarray(0, 32)));
  }
}

// ---- checks

function validBitcoinSegwit(address: string): boolean {
  if (!/^bc1/i.test(address) || (address !== address.toLowerCase() && address !== address.toUpperCase())) return false;
  const lower = address.toLowerCase();
  try {
    const { prefix, words } = bech32.decode(lower as `${string}1${string}`);
    if (prefix !== 'bc' || words[0] !== 0) return false;
    const program = bech32.fromWords(words.slice(1));
    return program.length === 20 || program.length === 32;
  } catch {
    // version 1+ (Taproot) uses bech32m
  }
  try {
    const { prefix, words } = bech32m.decode(lower as `${string}1${string}`);
    return prefix === 'bc' && words[0] === 1 && bech32m.fromWords(words.slice(1)).length === 32;
  } catch {
    return false;
  }
}

export function validateAddress(network: Network, address: string): boolean {
  try {
    switch (network) {
      case 'TRC20': {
        const bytes = base58check.decode(address);
        return bytes.length === 21 && bytes[0] === 0x41;
      }
      case 'ERC20':
      case 'POLYGON':
      case 'BASE':
      case 'CELO':
        return /^0x[0-9a-fA-F]{40}$/.test(address) && toEip55(address) === address;
      case 'BTC': {
        if (/^bc1/i.test(address)) return validBitcoinSegwit(address);
        const bytes = base58check.decode(address);
        return bytes.length === 21 && (bytes[0] === 0x00 || bytes[0] === 0x05);
      }
      case 'SOL':
        return base58.decode(address).length === 32;
      case 'XLM': {
        if (!/^G[A-Z2-7]{55}$/.test(address)) return false;
        const raw = base32nopad.decode(address);
        const payload = raw.subarray(0, 33);
        const crc = crc16xmodem(payload);
        return raw.length === 35 && raw[0] === 6 << 3 && raw[33] === (crc & 0xff) && raw[34] === crc >> 8;
      }
    }
  } catch {
    return false;
  }
}

const MAX_MEMO_ID = 2n ** 64n - 1n;

/**
 * The tag that goes with an address: a Stellar address is shared, so it needs the memo that tells whose deposit
 * it is (a memo id, 1 to 2^64-1); no other network takes one. Returns the problem, or null when the tag is right.
 */
export function tagProblem(network: Network, tag: string | null): string | null {
  if (network !== 'XLM') return tag === null ? null : `a ${network} address takes no memo`;
  if (tag === null) return 'a Stellar address needs its memo (a memo id) after it';
  if (!/^\d{1,20}$/.test(tag) || BigInt(tag) < 1n || BigInt(tag) > MAX_MEMO_ID) return `memo ${tag} is not a memo id (a whole number from 1 to 2^64-1)`;
  return null;
}
