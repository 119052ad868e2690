import { parseArgs } from 'node:util';
import pino from 'pino';
import { FEATURE_FLAGS, type FeatureFlag } from '@portal/contract/domain';
import { ConfigError, loadConfig } from './config.ts';
import { demoTable, resetDemoData, seedDemo, seedManyTransactions } from './db/seed/demo.ts';
import { createMailer } from './lib/mailer.ts';
import { findPartner, findPartnerByAbbreviation } from './modules/partners/partners.repository.ts';
import { createOperatorService } from './modules/partners/partners.service.ts';
import { openRuntime } from './runtime.ts';

const USAGE = `Usage: npm run portal -- <command> [options]

Commands:
  migrate                         apply pending database migrations
  seed [--reset] [--transactions N]
                                  create the demo data (idempotent); --reset deletes and recreates it;
                                  --transactions N fills each demo partner's transaction tables to N rows
  create-partner --name N --abbreviation A --type B2B|COMMERCIAL
                 [--whitelisted] [--fiat-wallets] [--flag F ...] [--low-balance-limit AMOUNT]
  set-flags --partner ID|ABBR [--on F ...] [--off F ...]
  invite-admin --partner ID|ABBR --name N --email E
                                  create the partner's first admin and e-mail a temporary password

Feature flags: ${FEATURE_FLAGS.join(', ')}`;

function flagList(values: string[] | undefined): FeatureFlag[] {
  const out: FeatureFlag[] = [];
  for (const v of values ?? []) {
    if (!(FEATURE_FLAGS as readonly string[]).includes(v)) throw new ConfigError(`Unknown feature flag: ${v}\n\n${USAGE}`);
    out.push(v as FeatureFlag);
  }
  return out;
}

async function main() {
  const [command, ...rest] = process.argv.slice(2);
  if (!command || command === 'help' || command === '--help') {
    console.log(USAGE);
    return;
  }
  const { values } = parseArgs({
    args: rest,
    options: {
      reset: { type: 'boolean' },
      transactions: { type: 'string' },
      name: { type: 'string' },
      abbreviation: { type: 'string' },
      type: { type: 'string' },
      whitelisted: { type: 'boolean' },
      'fiat-wallets': { type: 'boolean' },
      flag: { type: 'string', multiple: true },
      on: { type: 'string', multiple: true },
      off: { type: 'string', multiple: true },
      'low-balance-limit': { type: 'string' },
      partner: { type: 'string' },
      email: { type: 'string' },
    },
  });
  const config = loadConfig();
  const { database, keys, migrated } = await openRuntime(config);
  const log = pino({ level: config.LOG_LEVEL });
  const db = database.db;
  const operator = createOperatorService({
    db,
    mailer: createMailer({ db, smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, log }),
    publicUrl: config.PUBLIC_URL ?? `http://localhost:${config.PORT}`,
  });
  const partnerOf = async (ref: string | undefined) => {
    if (!ref) throw new ConfigError(`--partner is required\n\n${USAGE}`);
    const row = /^[0-9a-f-]{36}$/i.test(ref) ? await findPartner(db, ref) : await findPartnerByAbbreviation(db, ref);
    if (!row) throw new ConfigError(`No partner ${ref}`);
    return row;
  };
  try {
    switch (command) {
      case 'migrate':
        console.log(migrated.length ? `Applied: ${migrated.join(', ')}` : 'The database is up to date.');
        break;
      case 'seed': {
        if (values.reset) await resetDemoData(db);
        const { created } = await seedDemo(db, keys.encryptionKey);
        console.log(created ? 'Demo data created.' : 'Demo data present already; nothing changed (use --reset to start over).');
        if (values.transactions) {
          const n = Number(values.transactions);
          if (!Number.isInteger(n) || n <= 0) throw new ConfigError(`--transactions takes a whole number of rows\n\n${USAGE}`);
          const started = performance.now();
          await seedManyTransactions(db, n);
          console.log(`Generated up to ${n} rows per transaction table per demo partner in ${Math.round(performance.now() - started)} ms.`);
        }
        console.log(`\n${demoTable()}`);
        break;
      }
      case 'create-partner': {
        const partner = await operator.createPartner({
          name: values.name ?? '',
          abbreviation: values.abbreviation ?? '',
          productType: (values.type ?? '').toUpperCase() as 'B2B',
          whitelisted: values.whitelisted ?? false,
          fiatWalletsEnabled: values['fiat-wallets'] ?? false,
          featureFlags: flagList(values.flag),
          lowBalanceLimit: values['low-balance-limit'],
        });
        console.log(`Created partner ${partner.name} (${partner.abbreviation}) with id ${partner.id}`);
        break;
      }
      case 'set-flags': {
        const partner = await partnerOf(values.partner);
        const changes = Object.fromEntries([
          ...flagList(values.on).map((f) => [f, true]),
          ...flagList(values.off).map((f) => [f, false]),
        ]) as Partial<Record<FeatureFlag, boolean>>;
        const flags = await operator.setFeatureFlags(partner.id, changes);
        console.log(`Feature flags of ${partner.name}:`);
        for (const [f, on] of Object.entries(flags)) console.log(`  ${on ? 'on ' : 'off'}  ${f}`);
        break;
      }
      case 'invite-admin': {
        const partner = await partnerOf(values.partner);
        const user = await operator.inviteUser({ partnerId: partner.id, name: values.name ?? '', email: values.email ?? '', role: 'admin' });
        console.log(`Invited ${user.email} as admin of ${partner.name}; the temporary password was e-mailed.`);
        break;
      }
      default:
        throw new ConfigError(`Unknown command: ${command}\n\n${USAGE}`);
    }
  } finally {
    await database.close();
  }
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) console.error(err.message);
  else if (err && typeof err === 'object' && 'issues' in err) {
    console.error(`Invalid input: ${(err as { issues: { path: PropertyKey[]; message: string }[] }).issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  } else console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
