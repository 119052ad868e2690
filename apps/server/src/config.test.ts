import { HDKey } from '@scure/bip32';
import { describe, expect, it } from 'vitest';
import { ConfigError, checkServing, loadConfig } from './config.ts';

describe('configuration', () => {
  it('needs nothing for a local start', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ PORT: 8080, HOST: '127.0.0.1', NODE_ENV: 'development', demo: true });
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.SMTP_URL).toBeUndefined();
    expect(c.dataDir).toMatch(/\.data$/);
  });

  it('names every bad variable', () => {
    try {
      loadConfig({ PORT: 'abc', DATABASE_URL: 'mysql://x', ENCRYPTION_KEY: 'short' });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const message = (err as Error).message;
      expect(message).toContain('PORT');
      expect(message).toContain('DATABASE_URL: must be a postgres:// URL');
      expect(message).toContain('ENCRYPTION_KEY: must be base64 of exactly 32 bytes');
    }
  });

  it('refuses production without the keys or SMTP, and turns the demo and the mail catcher off there', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/JWT_SECRET: required when NODE_ENV=production[\s\S]*ENCRYPTION_KEY[\s\S]*SMTP_URL/);
    const key = Buffer.alloc(32, 1).toString('base64');
    const prod = { NODE_ENV: 'production', JWT_SECRET: key, ENCRYPTION_KEY: key, SMTP_URL: 'smtp://mail.example:587' };
    const c = loadConfig(prod);
    expect(c).toMatchObject({ demo: false, mailCatcher: false });
    expect(loadConfig({ ...prod, DEMO: 'true' }).demo).toBe(true);
    expect(() => loadConfig({ ...prod, MAIL_CATCHER: 'true' })).toThrow(/MAIL_CATCHER: the development mail catcher cannot run when NODE_ENV=production/);
  });

  it('serves metrics in production only behind a token: a production server without METRICS_TOKEN does not start (the CLI needs none)', () => {
    const key = Buffer.alloc(32, 1).toString('base64');
    const prod = loadConfig({ NODE_ENV: 'production', JWT_SECRET: key, ENCRYPTION_KEY: key, SMTP_URL: 'smtp://mail.example:587' });
    expect(() => checkServing(prod)).toThrow(/METRICS_TOKEN: required when NODE_ENV=production/);
    expect(checkServing({ ...prod, METRICS_TOKEN: 'a-token-of-24-characters' }).METRICS_TOKEN).toBe('a-token-of-24-characters');
    expect(checkServing(loadConfig({})).METRICS_TOKEN).toBeUndefined();
  });

  it('trusts no proxy unless TRUST_PROXY names them (addresses, ranges, names, or a hop count), and never every sender', () => {
    expect(loadConfig({}).TRUST_PROXY).toBeUndefined();
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 10.1.0.0/16,loopback, 2001:DB8::1' }).TRUST_PROXY).toEqual([
      '10.0.0.1',
      '10.1.0.0/16',
      'loopback',
      '2001:db8::1',
    ]);
    expect(loadConfig({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    for (const bad of ['true', '*', '0.0.0.0/0', 'proxy.internal', '10.0.0.1/8', '0', '11']) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY: /);
    }
  });

  it("gives access tokens 15 minutes unless told otherwise, and no fewer than 10 s (a test's short tokens)", () => {
    expect(loadConfig({}).ACCESS_TOKEN_SECONDS).toBe(900);
    expect(loadConfig({ ACCESS_TOKEN_SECONDS: '15' }).ACCESS_TOKEN_SECONDS).toBe(15);
    for (const bad of ['5', '0', 'abc', '7200']) expect(() => loadConfig({ ACCESS_TOKEN_SECONDS: bad }), bad).toThrow(/ACCESS_TOKEN_SECONDS/);
  });

  it('runs the development mail catcher in development without SMTP_URL only', () => {
    expect(loadConfig({}).mailCatcher).toBe(true);
    expect(loadConfig({ SMTP_URL: 'smtp://127.0.0.1:25' }).mailCatcher).toBe(false);
    expect(loadConfig({ NODE_ENV: 'test' }).mailCatcher).toBe(false);
    expect(loadConfig({ MAIL_CATCHER: 'false' }).mailCatcher).toBe(false);
  });

  it('takes extended public keys for deposit addresses and refuses a private, testnet or wrong-kind key by name', () => {
    const xpub = 'xpub661MyMwAqRbcFtXgS5sYJABqqG9YLmC4Q1Rdap9gSE8NqtwybGhePY2gZ29ESFjqJoCu1Rupje8YtGqsefD265TMg7usUDFdp6W1EGMcet8';
    const zpub = 'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs';
    const xprv = HDKey.fromMasterSeed(Buffer.from('000102030405060708090a0b0c0d0e0f', 'hex')).privateExtendedKey;
    expect(loadConfig({ DEPOSIT_XPUB_EVM: xpub, DEPOSIT_XPUB_TRON: ` ${xpub} `, DEPOSIT_XPUB_BTC: zpub })).toMatchObject({
      DEPOSIT_XPUB_EVM: xpub,
      DEPOSIT_XPUB_TRON: xpub,
      DEPOSIT_XPUB_BTC: zpub,
    });
    expect(() => loadConfig({ DEPOSIT_XPUB_EVM: xprv })).toThrow(/DEPOSIT_XPUB_EVM: is an extended private key \(xprv\)/);
    expect(() => loadConfig({ DEPOSIT_XPUB_TRON: zpub })).toThrow(/DEPOSIT_XPUB_TRON: must be an xpub/);
    expect(() => loadConfig({ DEPOSIT_XPUB_BTC: 'xpub-not-really' })).toThrow(/DEPOSIT_XPUB_BTC: is not an extended public key/);
  });

  it('reads the webhook retry schedule as durations, about a day by default', () => {
    const schedule = loadConfig({}).WEBHOOK_RETRY_SCHEDULE;
    expect(schedule).toEqual([5, 300, 1800, 7200, 18000, 36000, 36000]);
    expect(schedule.reduce((a, b) => a + b, 0) / 3600).toBeGreaterThan(24);
    expect(loadConfig({ WEBHOOK_RETRY_SCHEDULE: '1, 2s,0.5m ,1h' }).WEBHOOK_RETRY_SCHEDULE).toEqual([1, 2, 30, 3600]);
    for (const bad of ['soon', '5s,,5s', '0', '-1', '9d', '10h,x']) {
      expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE: bad }), bad).toThrow(/WEBHOOK_RETRY_SCHEDULE: must be durations/);
    }
  });
});
