import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { KeyMismatchError, rekey, verifyKeys } from '../src/lib/key-check.ts';
import { encrypt, keyId, keyRing, type Keys } from '../src/lib/keys.ts';
import { DATABASES, browser, memoryMailer, setup, signIn, testConfig, type Browser, type TestContext } from './harness.ts';

const SOURCES = { JWT_SECRET: 'the test', ENCRYPTION_KEY: 'the test' };

/**
 * A rotation as docs/deployment.md runs it, with instances of each stage on one database: the old keys (A), the new
 * ones accepted (stage 1), the new ones signing with the old accepted (stage 2), `rekey`, the new keys alone (stage 3).
 */
describe.each(DATABASES)('rotating JWT_SECRET and ENCRYPTION_KEY on %s', (kind) => {
  let t: TestContext;
  const opened: TestContext[] = [];
  const next = { jwt: crypto.randomBytes(32), encryption: crypto.randomBytes(32) };
  let old: { jwt: Buffer; encryption: Buffer };
  let stage1: TestContext;
  let stage2: TestContext;

  /** Another instance over the test's database, with these keys. */
  async function instance(keys: Keys): Promise<TestContext> {
    const app = await buildApp({ config: testConfig(), database: t.database, keys, mailer: memoryMailer(), boss: null, clock: () => t.clock.now });
    await app.ready();
    const context: TestContext = { app, clock: t.clock, database: t.database, keys, mailer: memoryMailer(), close: () => app.close() };
    opened.push(context);
    return context;
  }
  /** A browser on another instance holding this one's cookies, as behind a balancer. */
  function moved(from: Browser, to: TestContext): Browser {
    const other = browser(to.app);
    for (const [name, value] of from.jar) other.jar.set(name, value);
    return other;
  }
  const profile = (on: TestContext, token: string) =>
    on.app.inject({ method: 'GET', url: '/api/v1/partner/profile', headers: { authorization: `Bearer ${token}` } });

  beforeAll(async () => {
    t = await setup(kind);
    // as the first start of a server does: the database now belongs to the old keys
    expect(await verifyKeys(t.database.db, t.keys, SOURCES)).toBe('written');
    old = { jwt: t.keys.jwtSecret.key, encryption: t.keys.encryptionKey.key };
    stage1 = await instance({ jwtSecret: keyRing(old.jwt, [next.jwt]), encryptionKey: keyRing(old.encryption, [next.encryption]) });
    stage2 = await instance({ jwtSecret: keyRing(next.jwt, [old.jwt]), encryptionKey: keyRing(next.encryption, [old.encryption]) });
  }, 60_000);
  afterAll(async () => {
    for (const o of opened) await o.close();
    await t?.close();
  });

  it('names the signing key in every token and sealed secret, and an instance understands the keys it accepts', async () => {
    const a = await signIn(t, 'admin@acme.test');
    expect(JSON.parse(Buffer.from(a.accessToken.split('.')[0]!, 'base64url').toString())).toMatchObject({ kid: keyId(old.jwt) });
    // the old instance's token is good on every stage that still accepts the old key
    expect((await profile(stage1, a.accessToken)).statusCode).toBe(200);
    expect((await profile(stage2, a.accessToken)).statusCode).toBe(200);
    const newOnly = await instance({ jwtSecret: keyRing(next.jwt), encryptionKey: keyRing(next.encryption) });
    expect((await profile(newOnly, a.accessToken)).json()).toMatchObject({ code: 'InvalidToken' });

    // stage 2 signs with the new key; the old instance does not know it, stage 1 does
    const b = await signIn(stage2, 'admin@kora.test');
    expect(JSON.parse(Buffer.from(b.accessToken.split('.')[0]!, 'base64url').toString())).toMatchObject({ kid: keyId(next.jwt) });
    expect((await profile(stage1, b.accessToken)).statusCode).toBe(200);
    expect((await profile(t, b.accessToken)).json()).toMatchObject({ code: 'InvalidToken' });
  });

  it('keeps a signed-in browser signed in while it is moved from the old instance to a stage-2 one', async () => {
    const s = await signIn(t, 'admin@acme.test');
    // a change on the old instance fetches its request-forgery token there
    expect((await s.browser.put('/api/v1/user/preferences', { language: 'fr' }, { token: s.accessToken })).statusCode).toBe(200);
    const csrf = await s.browser.post('/api/v1/security/csrf', {}, { token: s.accessToken });
    const token = csrf.json<{ csrf: string }>().csrf;

    // the signed request-forgery cookie and the token of the old key are honoured on stage 2 (sent as they are: no
    // fresh token fetched), and so is the old access token
    const change = await stage2.app.inject({
      method: 'PUT',
      url: '/api/v1/user/preferences',
      payload: { language: 'en' },
      headers: { cookie: [...s.browser.jar].map(([k, v]) => `${k}=${v}`).join('; '), authorization: `Bearer ${s.accessToken}`, 'x-csrf-token': token },
    });
    expect(change.statusCode, change.body).toBe(200);
    // the refresh cookie is read there too
    const there = moved(s.browser, stage2);
    const renewed = await there.post('/api/v1/users/refresh');
    expect(renewed.statusCode, renewed.body).toBe(200);
    const { accessToken } = renewed.json<{ accessToken: string }>();
    expect((await profile(stage2, accessToken)).statusCode).toBe(200);
    // the rotation's successor is sealed with the new key, and the old-key instance's ring does not open it
    const row = await t.database.db
      .selectFrom('refresh_tokens')
      .select('successor_enc')
      .where('user_id', '=', s.user.id)
      .where('successor_enc', 'is not', null)
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    expect(row.successor_enc).toMatch(new RegExp(`^v2:${keyId(next.encryption)}:`));
  });

  it('opens the old key`s authenticator secrets on stage 2, and only rekey lets the old key go', async () => {
    // the demo's authenticator secrets were sealed with the old key: a sign-in on stage 2 opens them
    await signIn(stage2, 'viewer@acme.test');
    const stage3 = { jwtSecret: keyRing(next.jwt), encryptionKey: keyRing(next.encryption) };
    // dropping the old key before rekey is refused: the database still holds secrets only it opens
    await expect(verifyKeys(t.database.db, stage3, SOURCES)).rejects.toThrow(KeyMismatchError);
    await expect(verifyKeys(t.database.db, stage3, SOURCES)).rejects.toThrow(/cli rekey/);

    // a secret no key of the ring opens is reported, and the database keeps accepting the old key
    const stray = encrypt(keyRing(crypto.randomBytes(32)), 'JBSWY3DPEHPK3PXP');
    const viewer = await t.database.db.selectFrom('users').select(['id', 'totp_secret_enc']).where('email', '=', 'viewer@acme.test').executeTakeFirstOrThrow();
    await t.database.db.updateTable('users').set({ totp_secret_enc: stray }).where('id', '=', viewer.id).execute();
    const refused = await rekey(t.database.db, stage2.keys, 2);
    expect(refused.checkMoved).toBe(false);
    expect(refused.unreadable).toEqual([{ table: 'users', column: 'totp_secret_enc', id: viewer.id }]);
    await expect(verifyKeys(t.database.db, stage3, SOURCES)).rejects.toThrow(KeyMismatchError);
    await t.database.db.updateTable('users').set({ totp_secret_enc: viewer.totp_secret_enc }).where('id', '=', viewer.id).execute();

    // in batches of 2: every sealed value ends under the new key, and a second run has nothing left to do
    const done = await rekey(t.database.db, stage2.keys, 2);
    expect(done).toMatchObject({ checkMoved: true, unreadable: [] });
    const again = await rekey(t.database.db, stage2.keys, 2);
    expect(again).toEqual({ resealed: 0, unreadable: [], checkMoved: true });
    const sealed = await t.database.db.selectFrom('users').select('totp_secret_enc').where('totp_secret_enc', 'is not', null).execute();
    expect(sealed.length).toBeGreaterThan(3);
    for (const { totp_secret_enc } of sealed) expect(totp_secret_enc).toMatch(new RegExp(`^v2:${keyId(next.encryption)}:`));
    const successors = await t.database.db.selectFrom('refresh_tokens').select('successor_enc').where('successor_enc', 'is not', null).execute();
    for (const { successor_enc } of successors) expect(successor_enc).toMatch(new RegExp(`^v2:${keyId(next.encryption)}:`));

    // stage 3: the new keys alone start, and sign in with the secrets sealed again; the old keys alone are refused
    expect(await verifyKeys(t.database.db, stage3, SOURCES)).toBe('matched');
    const last = await instance(stage3);
    const s = await signIn(last, 'viewer@acme.test');
    expect((await profile(last, s.accessToken)).statusCode).toBe(200);
    const oldOnly = { jwtSecret: keyRing(old.jwt), encryptionKey: keyRing(old.encryption) };
    await expect(verifyKeys(t.database.db, oldOnly, SOURCES)).rejects.toThrow(/JWT_SECRET: not the key[\s\S]*ENCRYPTION_KEY: not the key/);
  });
});
