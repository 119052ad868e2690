import crypto from 'node:crypto';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { createBase58check } from '@scure/base';
import { HDKey } from '@scure/bip32';
import { describe, expect, it } from 'vitest';
import { NETWORKS } from '@portal/contract/domain';
import { deriveAddress, generateDemoAddress, parseExtendedPublicKey, tagProblem, toEip55, validateAddress, xpubFamilyOf } from './deposit-addresses.ts';

/** BIP32 test vector 1: seed 000102...0f, chain m. */
const TV1_SEED = Buffer.from('000102030405060708090a0b0c0d0e0f', 'hex');
const TV1_XPUB = 'xpub661MyMwAqRbcFtXgS5sYJABqqG9YLmC4Q1Rdap9gSE8NqtwybGhePY2gZ29ESFjqJoCu1Rupje8YtGqsefD265TMg7usUDFdp6W1EGMcet8';

/** BIP39 "abandon ×11 about" with no passphrase: the seed behind the BIP44/49/84 published vectors. */
const ABANDON_SEED = crypto.pbkdf2Sync(`${'abandon '.repeat(11)}about`, 'mnemonic', 2048, 64, 'sha512');

// ---- written out here, apart from the code under test: from the private key, through the uncompressed public key
const b58check = createBase58check((d: Uint8Array) => new Uint8Array(crypto.createHash('sha256').update(d).digest()));
function accountFromPrivateKey(privateKey: Uint8Array): Uint8Array {
  const uncompressed = secp256k1.getPublicKey(privateKey, false); // 0x04 || X || Y
  return keccak_256(uncompressed.slice(1)).slice(12);
}
function eip55(account: Uint8Array): string {
  const lower = Buffer.from(account).toString('hex');
  const hash = Buffer.from(keccak_256(Buffer.from(lower, 'ascii'))).toString('hex');
  let out = '0x';
  for (let i = 0; i < 40; i++) out += parseInt(hash[i]!, 16) > 7 ? lower[i]!.toUpperCase() : lower[i];
  return out;
}
const tron = (account: Uint8Array) => b58check.encode(Uint8Array.of(0x41, ...account));
const p2pkh = (publicKey: Uint8Array) =>
  b58check.encode(Uint8Array.of(0x00, ...crypto.createHash('ripemd160').update(crypto.createHash('sha256').update(publicKey).digest()).digest()));

describe('deposit addresses', () => {
  it('EIP-55 matches the published test vectors', () => {
    for (const a of [
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
      '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
      '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
    ]) {
      expect(toEip55(a.toLowerCase())).toBe(a);
    }
  });

  it('accepts known real addresses of each format', () => {
    expect(validateAddress('TRC20', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe(true); // USDT's TRC20 contract
    expect(validateAddress('BTC', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa')).toBe(true); // the genesis address
    expect(validateAddress('BTC', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4')).toBe(true); // BIP173 P2WPKH
    expect(validateAddress('BTC', 'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4')).toBe(true); // upper case is allowed
    expect(validateAddress('BTC', 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0')).toBe(true); // BIP350 Taproot
    expect(validateAddress('SOL', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v')).toBe(true); // USDC's mint
    expect(validateAddress('XLM', 'GA5ZSEJYB37JRC5AVCIA5MOP4RHTM335X2KGX3IHOJAPP5RE34K4KZVN')).toBe(true);
  });

  it('refuses broken Bitcoin SegWit addresses: mixed case, wrong checksum, bech32 for Taproot', () => {
    expect(validateAddress('BTC', 'bc1qW508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4')).toBe(false);
    expect(validateAddress('BTC', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5')).toBe(false);
    expect(validateAddress('BTC', 'bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7k7grplx')).toBe(false);
    expect(validateAddress('BTC', 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx')).toBe(false); // testnet
  });

  it('makes a valid, distinct demo address for every network, with a memo tag on XLM only', () => {
    for (const network of NETWORKS) {
      const a = generateDemoAddress(network);
      const b = generateDemoAddress(network);
      expect(validateAddress(network, a.address), `${network} ${a.address}`).toBe(true);
      expect(a.address).not.toBe(b.address);
      expect(tagProblem(network, a.tag)).toBeNull();
    }
    expect(generateDemoAddress('TRC20').address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
  });

  it('refuses a changed character (the checksum catches it)', () => {
    for (const network of NETWORKS) {
      const { address } = generateDemoAddress(network);
      const i = address.length - 3;
      const swapped = address.slice(0, i) + (address[i] === 'A' ? 'B' : 'A') + address.slice(i + 1);
      if (network === 'SOL') continue; // Solana addresses are plain keys: no checksum to catch a typo
      expect(validateAddress(network, swapped), `${network} ${swapped}`).toBe(false);
    }
  });

  it('wants a memo id on a Stellar address and no tag anywhere else', () => {
    expect(tagProblem('XLM', '1')).toBeNull();
    expect(tagProblem('XLM', '18446744073709551615')).toBeNull();
    expect(tagProblem('XLM', null)).toMatch(/needs its memo/);
    expect(tagProblem('XLM', '0')).toMatch(/not a memo id/);
    expect(tagProblem('XLM', '18446744073709551616')).toMatch(/not a memo id/);
    expect(tagProblem('XLM', 'hello')).toMatch(/not a memo id/);
    expect(tagProblem('SOL', '5')).toMatch(/takes no memo/);
    expect(tagProblem('TRC20', null)).toBeNull();
  });
});

describe('addresses derived from an extended public key', () => {
  it('BIP32 test vector 1: the xpub is the published one, and <xpub>/0/i gives the EVM, TRON and BTC addresses of m/0/i', () => {
    const root = HDKey.fromMasterSeed(TV1_SEED);
    expect(root.publicExtendedKey).toBe(TV1_XPUB);
    const evm = parseExtendedPublicKey('EVM', TV1_XPUB);
    const trx = parseExtendedPublicKey('TRON', TV1_XPUB);
    const btc = parseExtendedPublicKey('BTC', TV1_XPUB);
    for (const i of [0, 1, 7]) {
      // independently: private derivation from the seed, the public key computed from the private one
      const child = root.derive(`m/0/${i}`);
      const account = accountFromPrivateKey(child.privateKey!);
      expect(deriveAddress(evm, 'ERC20', i)).toBe(eip55(account));
      expect(deriveAddress(evm, 'POLYGON', i)).toBe(eip55(account));
      expect(deriveAddress(trx, 'TRC20', i)).toBe(tron(account));
      expect(deriveAddress(btc, 'BTC', i)).toBe(p2pkh(secp256k1.getPublicKey(child.privateKey!, true)));
    }
    // the first ones written out, so that a change of derivation path shows here too
    expect(deriveAddress(evm, 'ERC20', 0)).toBe(eip55(Buffer.from('4b7115ad9623a528f1845eaf85d166de1e869bfb', 'hex')));
    expect(validateAddress('TRC20', deriveAddress(trx, 'TRC20', 0))).toBe(true);
    expect(evm.fingerprint).toBe('3442193e'); // the fingerprint of TV1's master key, as in BIP32
  });

  it('matches the published BIP44 / BIP49 / BIP84 and TRON addresses of the "abandon ... about" wallet', () => {
    const account = (path: string, versions?: { private: number; public: number }) =>
      HDKey.fromMasterSeed(ABANDON_SEED, versions).derive(path).publicExtendedKey;
    const eth = account("m/44'/60'/0'");
    expect(deriveAddress(parseExtendedPublicKey('EVM', eth), 'ERC20', 0)).toBe('0x9858EfFD232B4033E47d90003D41EC34EcaEda94');
    expect(deriveAddress(parseExtendedPublicKey('TRON', account("m/44'/195'/0'")), 'TRC20', 0)).toBe('TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH');
    const bip44 = 'xpub6BosfCnifzxcFwrSzQiqu2DBVTshkCXacvNsWGYJVVhhawA7d4R5WSWGFNbi8Aw6ZRc1brxMyWMzG3DSSSSoekkudhUd9yLb6qx39T9nMdj';
    expect(account("m/44'/0'/0'")).toBe(bip44);
    expect(deriveAddress(parseExtendedPublicKey('BTC', bip44), 'BTC', 0)).toBe('1LqBGSKuX5yYUonjxT5qGfpUsXKYYWeabA');
    const bip84 = 'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs';
    expect(deriveAddress(parseExtendedPublicKey('BTC', bip84), 'BTC', 0)).toBe('bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu');
    const ypub = account("m/49'/0'/0'", { private: 0x049d7878, public: 0x049d7cb2 });
    expect(ypub.startsWith('ypub')).toBe(true);
    expect(deriveAddress(parseExtendedPublicKey('BTC', ypub), 'BTC', 0)).toBe('37VucYSaXLCAsxYyAPfbSi9eh4iEcbShgf');
  });

  it('refuses private keys, testnet keys, Bitcoin-only kinds for EVM and TRON, and anything unreadable', () => {
    const root = HDKey.fromMasterSeed(TV1_SEED);
    expect(() => parseExtendedPublicKey('EVM', root.privateExtendedKey)).toThrow(/private key/);
    const tpub = HDKey.fromMasterSeed(TV1_SEED, { private: 0x04358394, public: 0x043587cf }).publicExtendedKey;
    expect(() => parseExtendedPublicKey('BTC', tpub)).toThrow(/testnet/);
    const zpub = HDKey.fromMasterSeed(TV1_SEED, { private: 0x04b2430c, public: 0x04b24746 }).publicExtendedKey;
    expect(() => parseExtendedPublicKey('EVM', zpub)).toThrow(/must be an xpub/);
    expect(() => parseExtendedPublicKey('TRON', zpub)).toThrow(/must be an xpub/);
    expect(parseExtendedPublicKey('BTC', zpub).bitcoinKind).toBe('p2wpkh');
    expect(() => parseExtendedPublicKey('EVM', `${TV1_XPUB.slice(0, -1)}9`)).toThrow(/not an extended public key/);
    expect(() => parseExtendedPublicKey('EVM', 'hello')).toThrow(/not an extended public key/);
  });

  it('derives only on the networks of its family, and only at non-hardened indexes', () => {
    const evm = parseExtendedPublicKey('EVM', TV1_XPUB);
    expect(() => deriveAddress(evm, 'TRC20', 0)).toThrow();
    expect(() => deriveAddress(evm, 'ERC20', 2 ** 31)).toThrow(/out of range/);
    expect(() => deriveAddress(evm, 'ERC20', -1)).toThrow(/out of range/);
    expect(NETWORKS.filter((n) => xpubFamilyOf(n) === null)).toEqual(['XLM', 'SOL']);
  });
});
