import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OTP_PURPOSE_MESSAGES } from '@portal/contract/otp';
import { WALLET_MESSAGES } from '@portal/contract/wallets';
import { WEBHOOK_EVENT_TYPES } from '@portal/contract/webhooks';
import { DEMO_PARTNERS } from '../src/db/seed/demo.ts';
import { generateDemoAddress } from '../src/lib/deposit-addresses.ts';
import { DATABASES, setupSignedInOverSmtp, type Session, type TestContext } from './harness.ts';
import { mailText, type Sink } from './smtp-sink.ts';

const ADMIN = 'admin@acme.test';
const TREASURY = 'treasury@acme.test';
const VIEWER = 'viewer@acme.test';
const KORA = 'admin@kora.test';

/** One character changed near the end: the checksum catches it. */
const typo = (address: string) => {
  const i = address.length - 3;
  return address.slice(0, i) + (address[i] === 'A' ? 'B' : 'A') + address.slice(i + 1);
};

describe.each(DATABASES)('codes checked before they are sent, and bound to their change, on %s', (kind) => {
  let t: TestContext;
  let smtp: Sink;
  let s: Record<string, Session>;
  beforeAll(async () => {
    ({ t, s, smtp } = await setupSignedInOverSmtp(kind, [ADMIN, TREASURY, VIEWER, KORA]));
  });
  afterAll(async () => {
    await t?.close();
  });

  const opts = (email: string) => ({ token: s[email]!.accessToken });
  const ask = (email: string, purpose: unknown) => {
    // past the send limit's window, so that a test may ask for as many codes as it needs
    t.clock.now += 11 * 60_000;
    return s[email]!.browser.put('/api/v1/user/otp', purpose, opts(email));
  };
  /** Asks for a code for `purpose` and reads it (and the mail's text) from the SMTP server. */
  const codeMails = (before: number) => smtp.received.slice(before).filter((m) => /verification code is \d{6}/.test(mailText(m.raw)));
  async function codeFor(email: string, purpose: unknown) {
    const before = smtp.received.length;
    const res = await ask(email, purpose);
    expect(res.statusCode, res.body).toBe(200);
    // notifications of earlier changes may arrive meanwhile: the code's mail is the one with a code
    await expect.poll(() => codeMails(before).length).toBe(1);
    // quoted-printable undone: the ellipsis of a shortened address arrives as its UTF-8 bytes
    const text = mailText(codeMails(before)[0]!.raw);
    return { code: /verification code is (\d{6})/.exec(text)![1]!, text };
  }
  /** Asks for a code that must be refused: no mail goes out. */
  async function refused(email: string, purpose: unknown) {
    const before = smtp.received.length;
    const res = await ask(email, purpose);
    await new Promise((r) => setTimeout(r, 200));
    expect(codeMails(before)).toHaveLength(0);
    return res;
  }
  const addIp = (email: string, ipAddress: string, otp: string) => s[email]!.browser.post('/api/v1/partner/ip-address', { ipAddress, otp }, opts(email));
  const changeIp = (email: string, ipAddress: string, newIpAddress: string, otp: string) =>
    s[email]!.browser.put('/api/v1/partner/ip-address', { ipAddress, newIpAddress, otp }, opts(email));
  const ips = async (email: string) =>
    (await s[email]!.browser.get('/api/v1/partner/ip-addresses', opts(email)))
      .json<{ ipAddresses: { ipAddress: string }[] }>()
      .ipAddresses.map((r) => r.ipAddress);

  it('refuses a wallet address with a bad checksum before a code is sent, with the final call’s code and message', async () => {
    const { address } = generateDemoAddress('TRC20');
    const res = await refused(ADMIN, { action: 'wallet.add', target: { address: typo(address), network: 'TRC20', currencies: ['USDT'] } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'InvalidWalletAddress', message: WALLET_MESSAGES.invalidAddress });
    const nul = await refused(ADMIN, { action: 'wallet.add', target: { address: `${address}\u0000`, network: 'TRC20' } });
    expect(nul.statusCode).toBe(400);
    // deleting a wallet that is not yours: 404 before the code
    expect((await refused(ADMIN, { action: 'wallet.delete', target: { address, network: 'TRC20' } })).statusCode).toBe(404);
    // a view-only user cannot ask for a code for a wallet change
    expect((await refused(VIEWER, { action: 'wallet.add', target: { address, network: 'TRC20' } })).statusCode).toBe(403);
  });

  it('says the change in the mail, and accepts the code only for that wallet address', async () => {
    const a = generateDemoAddress('TRC20').address;
    const b = generateDemoAddress('TRC20').address;
    const { code, text } = await codeFor(ADMIN, { action: 'wallet.add', target: { address: a, network: 'TRC20', currencies: ['USDT'] } });
    expect(text).toContain(`to add the USDT (TRC20) address ${a.slice(0, 4)}…${a.slice(-4)}`);
    const body = { network: 'TRC20', currencies: ['USDT'], otp: code };
    const other = await s[ADMIN]!.browser.post('/api/v1/partner/wallet', { ...body, address: b }, opts(ADMIN));
    expect(other.statusCode).toBe(400);
    expect(other.json()).toMatchObject({ code: 'OtpForAnotherChange', message: OTP_PURPOSE_MESSAGES.otherChange });
    // nor an allowed IP
    const ip = await addIp(ADMIN, '203.0.113.7', code);
    expect(ip.json()).toMatchObject({ code: 'OtpForAnotherChange' });
    const right = await s[ADMIN]!.browser.post('/api/v1/partner/wallet', { ...body, address: a }, opts(ADMIN));
    expect(right.statusCode, right.body).toBe(201);
    // registered to this partner: another partner is refused before a code, as the final call would
    const kora = await refused(KORA, { action: 'wallet.add', target: { address: a, network: 'TRC20' } });
    expect(kora.json()).toMatchObject({ code: 'WalletAddressTaken' });
    // the address is now taken: refused before the next code, as the final call would
    const again = await refused(ADMIN, { action: 'wallet.add', target: { address: a, network: 'TRC20' } });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'WalletAddressTaken' });
  });

  it('checks an allowed IP (format, duplicate, existence) before a code, and binds the code to it', async () => {
    expect((await refused(ADMIN, { action: 'ip.add', target: { ipAddress: '300.1.1.1' } })).json()).toMatchObject({ code: 'ValidationFailed' });
    const { code, text } = await codeFor(ADMIN, { action: 'ip.add', target: { ipAddress: '198.51.100.10' } });
    expect(text).toContain('to allow the IP address 198.51.100.10');
    expect((await addIp(ADMIN, '198.51.100.11', code)).json()).toMatchObject({ code: 'OtpForAnotherChange' });
    expect((await addIp(ADMIN, '198.51.100.10', code)).statusCode).toBe(201);
    const dup = await refused(ADMIN, { action: 'ip.add', target: { ipAddress: '198.51.100.10' } });
    expect(dup.statusCode).toBe(409);
    expect(dup.json<{ message: string }>().message).toBe('198.51.100.10 is already on the list.');
    const missing = await refused(ADMIN, { action: 'ip.delete', target: { ipAddress: '198.51.100.99' } });
    expect(missing.statusCode).toBe(404);
    const del = await codeFor(ADMIN, { action: 'ip.delete', target: { ipAddress: '198.51.100.10' } });
    expect(del.text).toContain('to remove the allowed IP 198.51.100.10');
  });

  it('PUT partner/ip-address changes an allowed address with the code sent for that change, audited', async () => {
    const add = await codeFor(ADMIN, { action: 'ip.add', target: { ipAddress: '192.0.2.1' } });
    expect((await addIp(ADMIN, '192.0.2.1', add.code)).statusCode).toBe(201);
    const purpose = { action: 'ip.update', target: { ipAddress: '192.0.2.1', newIpAddress: '192.0.2.0/28' } };
    const { code, text } = await codeFor(ADMIN, purpose);
    expect(text).toContain('to change the allowed IP 192.0.2.1 to 192.0.2.0/28');
    expect((await changeIp(ADMIN, '192.0.2.1', '192.0.2.2', code)).json()).toMatchObject({ code: 'OtpForAnotherChange' });
    const res = await changeIp(ADMIN, '192.0.2.1', '192.0.2.0/28', code);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ ipAddress: { ipAddress: '192.0.2.0/28', status: 'whitelisted' } });
    expect(await ips(ADMIN)).toContain('192.0.2.0/28');
    expect(await ips(ADMIN)).not.toContain('192.0.2.1');
    const audit = await t.database.db
      .selectFrom('audit_events')
      .selectAll()
      .where('partner_id', '=', DEMO_PARTNERS.acme.id)
      .where('action', '=', 'ip_address.changed')
      .execute();
    expect(audit).toHaveLength(1);
    // the label alone, bound to the label asked for
    const named = await codeFor(ADMIN, { action: 'ip.update', target: { ipAddress: '192.0.2.0/28', newIpAddress: '192.0.2.0/28', label: ' Payouts server ' } });
    expect(named.text).toContain('to change the label of the allowed IP 192.0.2.0/28 to Payouts server');
    const relabel = (label: string) =>
      s[ADMIN]!.browser.put('/api/v1/partner/ip-address', { ipAddress: '192.0.2.0/28', newIpAddress: '192.0.2.0/28', label, otp: named.code }, opts(ADMIN));
    expect((await relabel('Other')).json()).toMatchObject({ code: 'OtpForAnotherChange' });
    const labelled = await relabel('Payouts server');
    expect(labelled.statusCode, labelled.body).toBe(200);
    expect(labelled.json()).toMatchObject({ ipAddress: { ipAddress: '192.0.2.0/28', label: 'Payouts server' } });
    expect((await refused(ADMIN, { action: 'ip.update', target: { ipAddress: '192.0.2.0/28', newIpAddress: '192.0.2.0/28' } })).statusCode).toBe(400);
    // a change to an address already on the list is refused before the code
    const add2 = await codeFor(ADMIN, { action: 'ip.add', target: { ipAddress: '192.0.2.100' } });
    expect((await addIp(ADMIN, '192.0.2.100', add2.code)).statusCode).toBe(201);
    expect((await refused(ADMIN, { action: 'ip.update', target: { ipAddress: '192.0.2.100', newIpAddress: '192.0.2.0/28' } })).statusCode).toBe(409);
  });

  it('PUT partner/ip-address: admin only, and another partner can neither see nor change the address', async () => {
    const purpose = { action: 'ip.update', target: { ipAddress: '192.0.2.0/28', newIpAddress: '192.0.2.5' } };
    for (const email of [TREASURY, VIEWER]) {
      expect((await refused(email, purpose)).statusCode).toBe(403);
      expect((await changeIp(email, '192.0.2.0/28', '192.0.2.5', '123456')).statusCode).toBe(403);
    }
    // the other partner's admin: not on their list (or their feature is off): refused, and acme's address stays
    const kora = await refused(KORA, purpose);
    expect([403, 404]).toContain(kora.statusCode);
    expect((await changeIp(KORA, '192.0.2.0/28', '192.0.2.5', '123456')).statusCode).toBeGreaterThanOrEqual(400);
    expect(await ips(ADMIN)).toContain('192.0.2.0/28');
  });

  it('checks a webhook change before a code: a URL the final call refuses, an endpoint that is not yours', async () => {
    const bad = await refused(ADMIN, { action: 'webhook.create', target: { url: 'not a url' } });
    expect(bad.statusCode).toBe(400);
    const missing = await refused(ADMIN, { action: 'webhook.delete', target: { id: '00000000-0000-4000-8000-000000000000' } });
    expect(missing.statusCode).toBe(404);
    expect((await refused(ADMIN, { action: 'webhook.delete', target: { id: 'x\u0000' } })).statusCode).toBe(404);
    const { code, text } = await codeFor(ADMIN, { action: 'webhook.create', target: { url: 'https://hooks.acme.test/in' } });
    expect(text).toContain('to add the webhook endpoint https://hooks.acme.test/in');
    const other = await s[ADMIN]!.browser.post(
      '/api/v1/partner/webhook',
      { url: 'https://evil.test/in', events: [WEBHOOK_EVENT_TYPES[0]], otp: code },
      opts(ADMIN),
    );
    expect(other.json()).toMatchObject({ code: 'OtpForAnotherChange' });
    const hook = (url: string, otp: string) => ({ url, events: [WEBHOOK_EVENT_TYPES[0]], otp });
    const created = await s[ADMIN]!.browser.post('/api/v1/partner/webhook', hook('https://hooks.acme.test/in', code), opts(ADMIN));
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json<{ webhook: { id: string } }>().webhook.id;
    // a code to move the endpoint to one URL does not move it to another, nor delete it
    const move = await codeFor(ADMIN, { action: 'webhook.update', target: { id, url: 'https://hooks.acme.test/new' } });
    expect(move.text).toContain('to change the webhook endpoint https://hooks.acme.test/new');
    const elsewhere = await s[ADMIN]!.browser.put('/api/v1/partner/webhook', { id, url: 'https://evil.test/in', otp: move.code }, opts(ADMIN));
    expect(elsewhere.json()).toMatchObject({ code: 'OtpForAnotherChange' });
    const deleted = await s[ADMIN]!.browser.delete(`/api/v1/partner/webhook/${id}?otp=${move.code}`, opts(ADMIN));
    expect(deleted.json()).toMatchObject({ code: 'OtpForAnotherChange' });
    const moved = await s[ADMIN]!.browser.put('/api/v1/partner/webhook', { id, url: 'https://hooks.acme.test/new', otp: move.code }, opts(ADMIN));
    expect(moved.statusCode, moved.body).toBe(200);
    // another partner's admin cannot ask for a code for this endpoint
    expect((await refused(KORA, { action: 'webhook.delete', target: { id } })).statusCode).toBeGreaterThanOrEqual(403);
  });
});
