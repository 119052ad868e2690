import { describe, expect, it } from 'vitest';
import { parseIpAddress, unmapIpv4 } from './ip-address.ts';
import { AddIpAddressRequest, CreateApiKeyRequest, signingText } from './api-keys.ts';

const canonical = (text: string) => {
  const r = parseIpAddress(text);
  return r.ok ? r.value.canonical : `ERR ${r.message}`;
};

/** One test a case: `text` is accepted and stored as `written`. */
const storesAs = (title: string, cases: [text: string, written: string][]) =>
  it.each(cases)(`${title}: %j`, (text, written) => {
    expect(canonical(text)).toBe(written);
  });

describe('allowed IP addresses', () => {
  storesAs('accepts IPv4 addresses and ranges, as they are written', [
    ['203.0.113.7', '203.0.113.7'],
    [' 10.0.0.0/8 ', '10.0.0.0/8'],
    ['198.51.100.0/24', '198.51.100.0/24'],
    ['203.0.113.7/32', '203.0.113.7'],
  ]);

  storesAs('writes IPv6 in the canonical form (RFC 5952), so that one address is stored one way', [
    ['2001:DB8:0:0:0:0:0:1', '2001:db8::1'],
    ['2001:db8:0000:0:1:0:0:1', '2001:db8::1:0:0:1'],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
    ['2001:db8::0:1', '2001:db8::1'],
    ['::1', '::1'],
    ['::', '::'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2:3:4:5:6'],
    ['2001:db8:0:1:1:1:1:1', '2001:db8:0:1:1:1:1:1'],
    ['::ffff:192.0.2.1', '::ffff:c000:201'],
    ['2001:DB8::/32', '2001:db8::/32'],
    ['2001:db8::/128', '2001:db8::'],
  ]);

  it.each([
    '',
    'localhost',
    '1.2.3',
    '1.2.3.4.5',
    '256.1.1.1',
    '01.2.3.4',
    '1.2.3.4/',
    '1.2.3.4/33',
    '1.2.3.4/08',
    '2001:db8:::1',
    '2001:db8::1::1',
    '1:2:3:4:5:6:7:8:9',
    'fe80::1%eth0',
    '12345::1',
    '1.2.3.4/24/1',
    '2001:db8::/129',
    '::1.2.3.4:5',
  ])('refuses what is not an address: %j', (bad) => {
    expect(parseIpAddress(bad).ok).toBe(false);
  });

  it('refuses a range not at its start, or one holding every address, with the reason', () => {
    expect(canonical('203.0.113.7/24')).toBe('ERR 203.0.113.7/24 is not the start of its range: did you mean 203.0.113.0/24?');
    expect(canonical('2001:db8::1/64')).toBe('ERR 2001:db8::1/64 is not the start of its range: did you mean 2001:db8::/64?');
    expect(canonical('0.0.0.0/0')).toMatch(/every address/);
    expect(canonical('::/0')).toMatch(/every address/);
  });

  it('reads the IPv4 address inside an IPv4-mapped IPv6 address', () => {
    expect(unmapIpv4('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(unmapIpv4('2001:db8::1')).toBe('2001:db8::1');
  });

  it('stores the canonical text from the request schema', () => {
    expect(AddIpAddressRequest.parse({ ipAddress: '2001:DB8::0:1', otp: '123456' }).ipAddress).toBe('2001:db8::1');
    expect(AddIpAddressRequest.safeParse({ ipAddress: 'not an ip', otp: '123456' }).success).toBe(false);
  });
});

describe('API key requests', () => {
  it('needs a name and at least one permission, each once', () => {
    expect(CreateApiKeyRequest.safeParse({ name: '  ', permissions: ['api_read'] }).success).toBe(false);
    expect(CreateApiKeyRequest.safeParse({ name: 'Payouts server', permissions: [] }).success).toBe(false);
    expect(CreateApiKeyRequest.safeParse({ name: 'Payouts server', permissions: ['api_read', 'api_read'] }).success).toBe(false);
    expect(CreateApiKeyRequest.safeParse({ name: 'Payouts server', permissions: ['root'] }).success).toBe(false);
    expect(CreateApiKeyRequest.parse({ name: ' Payouts server ', permissions: ['api_read'] })).toEqual({
      name: 'Payouts server',
      permissions: ['api_read'],
      // a key is for live data unless made for test
      mode: 'live',
    });
    expect(CreateApiKeyRequest.parse({ name: 'k', permissions: ['api_read'], mode: 'test' }).mode).toBe('test');
    expect(CreateApiKeyRequest.safeParse({ name: 'k', permissions: ['api_read'], mode: 'sandbox' }).success).toBe(false);
    expect(CreateApiKeyRequest.safeParse({ name: 'k', permissions: ['api_read'], expiry: '2030-01-01' }).success).toBe(false);
    expect(CreateApiKeyRequest.safeParse({ name: 'k', permissions: ['api_read'], expiry: '2030-01-01T00:00:00Z' }).success).toBe(true);
  });

  it('signs timestamp, method, path and body hash joined with nothing', () => {
    expect(signingText({ timestamp: '1700000000', method: 'get', path: '/api/v1/partner/accounts', bodySha256: 'e3b0' })).toBe(
      '1700000000GET/api/v1/partner/accounts' + 'e3b0',
    );
  });
});
