import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

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

  it('refuses production without the keys, and turns the demo off there', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/JWT_SECRET: required when NODE_ENV=production[\s\S]*ENCRYPTION_KEY/);
    const key = Buffer.alloc(32, 1).toString('base64');
    const c = loadConfig({ NODE_ENV: 'production', JWT_SECRET: key, ENCRYPTION_KEY: key });
    expect(c.demo).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', JWT_SECRET: key, ENCRYPTION_KEY: key, DEMO: 'true' }).demo).toBe(true);
  });
});
