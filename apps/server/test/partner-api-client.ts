import crypto from 'node:crypto';
import { expect } from 'vitest';
import { EMAIL_OTP_MINUTES } from '@portal/contract/otp';
import type { App } from '../src/app.ts';
import type { Browser } from './harness.ts';
import { mailText, type smtpSink } from './smtp-sink.ts';

/** What a partner's script holds of a key: its id and its secret. */
export type KeyPair = { apiKey: string; secretKey: string };

export const sha256Hex = (text: string) => crypto.createHash('sha256').update(text).digest('hex');

export type SignedOptions = {
  body?: unknown;
  /** the exact body text to send (instead of JSON of `body`) */
  raw?: string;
  /** unix seconds; default the app's clock */
  timestamp?: number;
  ip?: string;
  headers?: Record<string, string>;
  /** sign something other than what is sent (tampering tests) */
  sign?: { method?: string; path?: string; body?: string; secret?: string; timestamp?: string };
};

/** A signed partner-API call, as a partner's server makes it (see /api/docs). */
export function signedCall(app: App, key: KeyPair, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, options: SignedOptions = {}) {
  const body = options.raw ?? (options.body === undefined ? '' : JSON.stringify(options.body));
  const timestamp = String(options.timestamp ?? Math.floor(app.clock() / 1000));
  const text = `${options.sign?.timestamp ?? timestamp}${options.sign?.method ?? method}${options.sign?.path ?? url}${sha256Hex(options.sign?.body ?? body)}`;
  const signature = crypto
    .createHmac('sha256', options.sign?.secret ?? key.secretKey)
    .update(text)
    .digest('hex');
  return app.inject({
    method,
    url,
    remoteAddress: options.ip ?? '127.0.0.1',
    headers: {
      'x-api-key': key.apiKey,
      'x-api-timestamp': timestamp,
      'x-api-signature': signature,
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...(options.headers ?? {}),
    },
    ...(body ? { payload: body } : {}),
  });
}

/** Creates a key through the portal's call, as an admin would; answers the key with its secret. */
export async function createKey(
  as: { browser: Browser; accessToken: string },
  body: { name?: string; permissions: string[]; expiry?: string | null; mode?: 'live' | 'test' },
) {
  const res = await as.browser.post('/api/v1/partner/apikey', { name: 'Test key', ...body }, { token: as.accessToken });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{
    apiKey: KeyPair & {
      partnerId: string;
      mode: string;
      name: string;
      status: string;
      permissions: string[];
      expiry: string | null;
      expired: boolean;
      secretHint: string;
      publicKey: string;
    };
  }>().apiKey;
}

/**
 * Asks for an e-mailed code for a change as the signed-in user and reads it from the SMTP server the test runs. The clock moves
 * on 2.5 minutes first, so that a test may ask for many codes without reaching the send limit (5 in 10 minutes).
 */
export async function emailedCode(
  t: { clock: { now: number } },
  as: { browser: Browser; accessToken: string },
  smtp: Awaited<ReturnType<typeof smtpSink>>,
  /** what the code is for: `{ action, target }` */
  purpose: unknown,
) {
  t.clock.now += 150_000;
  const before = smtp.received.length;
  const res = await as.browser.put('/api/v1/user/otp', purpose, { token: as.accessToken });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json()).toMatchObject({ expiresInSeconds: EMAIL_OTP_MINUTES * 60 });
  // other mails (notifications of earlier changes) may arrive meanwhile: the code's is the one that has a code
  const codeMail = () => smtp.received.slice(before).find((m) => /verification code is \d{6}/.test(mailText(m.raw)));
  await expect.poll(codeMail).toBeDefined();
  return /verification code is (\d{6})/.exec(mailText(codeMail()!.raw))![1]!;
}
