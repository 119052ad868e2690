import { parseArgs } from 'node:util';
import pino from 'pino';
import { ConfigError, loadConfig } from './config.ts';
import { livePublisher } from './lib/live-bus.ts';
import { composeOperatorTools } from './composition.ts';
import { AppError } from './lib/errors.ts';
import { createMailer } from './lib/mailer.ts';
import { KeyMismatchError } from './lib/key-check.ts';
import { openRuntime } from './runtime.ts';
import { CLI_OPTIONS, COMMANDS, USAGE } from './cli-commands.ts';

async function main() {
  const [command, ...rest] = process.argv.slice(2);
  if (!command || command === 'help' || command === '--help') {
    console.log(USAGE);
    return;
  }
  const run = COMMANDS[command];
  const { values } = parseArgs({ args: rest, options: CLI_OPTIONS });
  if (!run) throw new ConfigError(`Unknown command: ${command}\n\n${USAGE}`);
  const config = loadConfig();
  const { database, keys, migrated } = await openRuntime(config);
  const log = pino({ level: config.LOG_LEVEL });
  const db = database.db;
  // the operator's tools, built by the composition root like every service
  const tools = composeOperatorTools({
    config,
    database,
    mailer: createMailer({ db, smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, log, logBodies: config.demo }),
    live: livePublisher(database),
  });
  const partnerOf = async (ref: string | undefined) => {
    if (!ref) throw new ConfigError(`--partner is required\n\n${USAGE}`);
    const row = await tools.partnerByRef(ref);
    if (!row) throw new ConfigError(`No partner ${ref}`);
    return row;
  };
  try {
    await run({ ...tools, values, config, database, db, keys, migrated, partnerOf });
  } finally {
    await database.close();
  }
}

main().catch((err: unknown) => {
  // keys that are not the database's: the server's exit code for a configuration it cannot run with
  if (err instanceof KeyMismatchError) {
    console.error(err.message);
    process.exit(78);
  }
  if (err instanceof ConfigError || err instanceof AppError) console.error(err.message);
  else if (err && typeof err === 'object' && 'issues' in err) {
    console.error(
      `Invalid input: ${(err as { issues: { path: PropertyKey[]; message: string }[] }).issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  } else console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
