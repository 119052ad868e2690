import { describe, expect, it } from 'vitest';
import { NETWORKS } from '@portal/contract/domain';
import { generateAddress, toEip55, validateAddress } from './deposit-addresses.ts';

describe('deposit addresses', () => {
  it('EIP-55 matches the published test vectors', () => {
    for (const a of ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359', '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB', '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb']) {
      expect(toEip55(a.toLowerCase())).toBe(a);
    }
  });

  it('accepts known real addresses of each format', () => {
    expect(validateAddress('TRC20', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe(true); // USDT's TRC20 contract
    expect(validateAddress('BTC', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa')).toBe(true); // the genesis address
    expect(validateAddress('SOL', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v')).toBe(true); // USDC's mint
    expect(validateAddress('XLM', 'GA5ZSEJYB37JRC5AVCIA5MOP4RHTM335X2KGX3IHOJAPP5RE34K4KZVN')).toBe(true);
  });

  it('generates a valid, distinct address for every network, with a memo tag on XLM only', () => {
    for (const network of NETWORKS) {
      const a = generateAddress(network);
      const b = generateAddress(network);
      expect(validateAddress(network, a.address), `${network} ${a.address}`).toBe(true);
      expect(a.address).not.toBe(b.address);
      if (network === 'XLM') expect(a.tag).toMatch(/^\d+$/);
      else expect(a.tag).toBeNull();
    }
    expect(generateAddress('TRC20').address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
  });

  it('refuses a changed character (the checksum catches it)', () => {
    for (const network of NETWORKS) {
      const { address } = generateAddress(network);
      const i = address.length - 3;
      const swapped = address.slice(0, i) + (address[i] === 'A' ? 'B' : 'A') + address.slice(i + 1);
      if (network === 'SOL') continue; // Solana addresses are plain keys: no checksum to catch a typo
      expect(validateAddress(network, swapped), `${network} ${swapped}`).toBe(false);
    }
  });
});
