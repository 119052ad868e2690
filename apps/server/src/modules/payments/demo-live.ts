import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Country } from '@portal/contract/countries';
import type { PaymentKind } from '@portal/contract/payments';
import type { DB } from '../../db/schema.ts';
import { DEMO_PARTNERS } from '../../db/seed/demo.ts';
import { DEMO_NAMES } from '../../db/seed/transactions.ts';
import type { ApiKeyAuth } from '../../lib/access.ts';
import type { CoverageService } from '../coverage/index.ts';
import { networksOfChannel } from './payments.repository.ts';
import type { PaymentService } from './payments.service.ts';

/** The demo partners the generator makes payments for, and their markets (enabled by the demo seed). */
const LIVE_PARTNERS: { partnerId: string; countries: Country[] }[] = [
  { partnerId: DEMO_PARTNERS.kora.id, countries: ['KE', 'NG', 'GH', 'UG'] },
  { partnerId: DEMO_PARTNERS.acme.id, countries: ['NG', 'KE', 'GH', 'ZA'] },
];
const pick = <T>(items: readonly T[]): T => items[crypto.randomInt(items.length)]!;

/**
 * An amount in the channel's range whose last digit mostly completes (0, 5 to 9) and now and then reaches another
 * outcome (1 fails, 2 expires, 3 is refunded, 4 is denied): the demo shows every path, mostly happy ones.
 */
export function demoAmount(min: string, max: string, roll = crypto.randomInt(100)): string {
  const low = Math.max(Number(min), 1);
  const high = Math.max(low, Math.min(Number(max), low * 400));
  const whole = Math.floor(low * 10 + crypto.randomInt(Math.max(1, Math.floor(high - low * 10))));
  const digit = roll < 85 ? pick([0, 5, 6, 7, 8, 9]) : pick([1, 2, 3, 4]);
  return String(Math.floor(Math.min(whole, Number(max)) / 10) * 10 + digit);
}

/** The generator's caller: a partner-API caller with both permissions, recorded as 'api key demo-generator'. */
const callerFor = (partnerId: string): ApiKeyAuth => ({
  kind: 'apiKey',
  mode: 'live',
  partnerId,
  keyId: 'demo',
  apiKey: 'demo-generator',
  name: 'Demo generator',
  permissions: ['api_read', 'api_write'],
});

/** What the demo's payments are made with: the payment service, and the channels coverage lists (the coverage module's port). */
export type DemoPaymentDeps = { db: Kysely<DB>; service: PaymentService; coverage: Pick<CoverageService, 'channels'> };

/** Makes one payment for a demo partner (collections a little more often, so balances grow); answers its kind. */
export async function makeDemoPayment(deps: DemoPaymentDeps): Promise<PaymentKind | undefined> {
  const target = pick(LIVE_PARTNERS);
  const country = pick(target.countries);
  const kind: PaymentKind = crypto.randomInt(100) < 60 ? 'collection' : 'disbursement';
  const caller = callerFor(target.partnerId);
  const { channels } = await deps.coverage.channels(caller, { country, rampType: kind === 'collection' ? 'deposit' : 'withdraw' });
  const channel = channels.length > 0 ? pick(channels.filter((c) => c.apiStatus === 'active')) : undefined;
  if (!channel) return undefined;
  const amount = demoAmount(channel.min, channel.max);
  const name = pick(DEMO_NAMES);
  const phone = `+${crypto.randomInt(200, 299)}7${String(crypto.randomInt(10_000_000, 99_999_999))}`;
  if (kind === 'collection') {
    await deps.service.collect(caller, {
      country,
      channelId: channel.id,
      amount,
      payer: { name },
      sequenceId: crypto.randomUUID(),
      ...(channel.channelType === 'momo' ? { accountNumber: phone } : {}),
    });
    return kind;
  }
  const network = pick(await networksOfChannel(deps.db, country, channel.id));
  if (!network) return undefined;
  const account =
    network.account_number_type === 'phone'
      ? phone
      : network.account_number_type === 'bank'
        ? String(crypto.randomInt(1_000_000_000, 9_999_999_999))
        : `user.${crypto.randomInt(1000, 9999)}`;
  await deps.service.disburse(caller, {
    country,
    channelId: channel.id,
    networkId: network.id,
    accountNumber: account,
    recipient: { name },
    amount,
    sequenceId: crypto.randomUUID(),
  });
  return kind;
}

/**
 * The demo is alive: with demo data, every DEMO_LIVE_SECONDS a new collection or disbursement arrives for Kora or
 * Acme and the sandbox processor moves it along. Off in tests and with DEMO_LIVE=false. Each server runs its own.
 */
export function startDemoLive(deps: DemoPaymentDeps & { seconds: number; log: FastifyBaseLogger }) {
  const timer = setInterval(() => {
    makeDemoPayment(deps).catch((err: unknown) => deps.log.debug({ err }, 'demo payment refused'));
  }, deps.seconds * 1000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
