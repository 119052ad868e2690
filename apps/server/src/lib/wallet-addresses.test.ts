import { describe, expect, it } from 'vitest';
import { toEip55 } from './deposit-addresses.ts';
import { addressKey, normaliseWalletAddress, walletTagProblem } from './wallet-addresses.ts';

const EIP55 = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

describe('settlement wallet addresses', () => {
  it('takes an EVM address without checksum and writes it checksummed; a wrong checksum is refused', () => {
    expect(normaliseWalletAddress('ERC20', EIP55.toLowerCase())).toBe(EIP55);
    expect(normaliseWalletAddress('POLYGON', `0x${EIP55.slice(2).toUpperCase()}`)).toBe(EIP55);
    expect(normaliseWalletAddress('BASE', EIP55)).toBe(EIP55);
    expect(normaliseWalletAddress('ERC20', EIP55.replace('aA', 'Aa'))).toBeNull();
    expect(normaliseWalletAddress('ERC20', '0x1234')).toBeNull();
    expect(toEip55(EIP55.toLowerCase())).toBe(EIP55);
  });

  it('writes SegWit in lower case and keeps other encodings as they are', () => {
    expect(normaliseWalletAddress('BTC', 'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4')).toBe('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4');
    expect(normaliseWalletAddress('TRC20', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t');
    expect(normaliseWalletAddress('TRC20', 'tr7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBeNull();
    expect(normaliseWalletAddress('XLM', 'GA5ZSEJYB37JRC5AVCIA5MOP4RHTM335X2KGX3IHOJAPP5RE34K4KZVN')).not.toBeNull();
  });

  it('keys one EVM account the same on every EVM network, and a Stellar account with its memo', () => {
    expect(addressKey('ERC20', EIP55, null)).toBe(addressKey('CELO', EIP55.toLowerCase(), null));
    expect(addressKey('XLM', 'GABC', '1')).not.toBe(addressKey('XLM', 'GABC', '2'));
    expect(addressKey('TRC20', 'TX', null)).toBe('TRON:TX');
  });

  it('takes a memo on Stellar only: a memo id or a short text', () => {
    expect(walletTagProblem('XLM', null)).toBeNull();
    expect(walletTagProblem('XLM', '12345')).toBeNull();
    expect(walletTagProblem('XLM', 'exchange-ref')).toBeNull();
    expect(walletTagProblem('XLM', '0')).not.toBeNull();
    expect(walletTagProblem('XLM', 'x'.repeat(29))).not.toBeNull();
    expect(walletTagProblem('ERC20', '1')).not.toBeNull();
    expect(walletTagProblem('ERC20', null)).toBeNull();
  });
});
