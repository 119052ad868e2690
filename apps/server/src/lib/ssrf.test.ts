import { describe, expect, it } from 'vitest';
import { RefusedTargetError, checkPublicHost, isPublicAddress } from './ssrf.ts';

describe('the SSRF guard', () => {
  it('refuses loopback, private, link-local and other non-public addresses, IPv4 inside IPv6 included', () => {
    const refused = [
      '127.0.0.1',
      '127.8.9.10',
      '0.0.0.0',
      '10.0.0.1',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '224.0.0.1',
      '255.255.255.255',
      '198.18.0.1',
      '192.0.2.1',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      'fd12:3456::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:a9fe:a9fe',
      '64:ff9b::a00:1',
      '2002:c0a8:0101::1',
      '::127.0.0.1',
      'not-an-ip',
    ];
    for (const address of refused) expect(isPublicAddress(address), address).toBe(false);
  });

  it('allows public addresses', () => {
    for (const address of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '2a00:1450:4001::200e']) {
      expect(isPublicAddress(address), address).toBe(true);
    }
  });

  it('checks every address a name resolves to, and literal addresses as they are', async () => {
    await expect(checkPublicHost('localhost')).rejects.toBeInstanceOf(RefusedTargetError);
    await expect(checkPublicHost('127.0.0.1')).rejects.toMatchObject({ address: '127.0.0.1' });
    await expect(checkPublicHost('no-such-host.invalid')).rejects.toMatchObject({ address: undefined });
    expect(await checkPublicHost('93.184.215.14')).toEqual(['93.184.215.14']);
  });
});
