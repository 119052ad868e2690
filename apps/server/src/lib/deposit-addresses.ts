import crypto from 'node:crypto';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { base32nopad, base58, createBase58check } from '@scure/base';
import type { Network } from '@portal/contract/domain';

/**
 * Deposit addresses that are valid for their network: the format, and the checksum where the network has one.
 * They are generated for the demo (random keys whose private half is thrown away); a real deployment receives
 * them from the custody provider, and validateAddress serves both.
 */

const sha256 = (data: Uint8Array) => new Uint8Array(crypto.createHash('sha256').update(data).digest());
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

export function generateAddress(network: Network): { address: string; tag: string | null } {
  const key20 = new Uint8Array(crypto.randomBytes(20));
  switch (network) {
    case 'TRC20':
      return { address: base58check.encode(new Uint8Array([0x41, ...key20])), tag: null };
    case 'ERC20':
    case 'POLYGON':
    case 'BASE':
    case 'CELO':
      return { address: toEip55(`0x${hex(key20)}`), tag: null };
    case 'BTC':
      return { address: base58check.encode(new Uint8Array([0x00, ...key20])), tag: null };
    case 'SOL':
      return { address: base58.encode(ed25519PublicKey()), tag: null };
    case 'XLM':
      return { address: stellarAccount(ed25519PublicKey()), tag: String(crypto.randomInt(100_000_000, 4_000_000_000)) };
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
