import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import { ConfigError } from '../config.ts';
import {
  SEALED_COLUMNS,
  anyEncryptedSecret,
  insertKeyCheck,
  readKeyCheck,
  replaceKeyCheck,
  resealOne,
  sealedOtherwise,
  type SealedTable,
} from '../db/key-check.repository.ts';
import type { DB } from '../db/schema.ts';
import { decrypt, encrypt, ringKeys, type KeyRing, type Keys } from './keys.ts';
import { safeEqual } from './tokens.ts';

const LABEL = 'partner-dashboard key check';

/** What the database keeps of a key: HMAC-SHA256(key, label). It proves the key without revealing it. */
export const keyCheckValue = (key: Buffer): string => crypto.createHmac('sha256', key).update(LABEL).digest('base64');

/** A key that does not belong to the database: a configuration error (the server exits with 78). */
export class KeyMismatchError extends ConfigError {}

/** Where each key in use came from, for the message: 'the environment' or the keys file's path. */
export type KeySources = { JWT_SECRET: string; ENCRYPTION_KEY: string };

const CONSEQUENCE = {
  ENCRYPTION_KEY: 'the stored authenticator secrets could not be read, so no sign-in code would be accepted',
  JWT_SECRET: "every session and scroll id issued with the database's key would be refused",
} as const;

const rotating = (names: (keyof KeySources)[]) =>
  `A rotation keeps the key being retired in ${names.map((name) => `${name}_ACCEPTED`).join(' and ')} until \`cli rekey\` ` +
  'has run with both (docs/deployment.md, "Rotating the keys").';

const checkOf = (ring: KeyRing) => ringKeys(ring).map(({ key }) => keyCheckValue(key));

function mismatch(names: (keyof KeySources)[], sources: KeySources): KeyMismatchError {
  const lines = names.map(
    (name) => `  ${name}: not the key this database was created with (in use: the one from ${sources[name]}); ` + `with it ${CONSEQUENCE[name]}.`,
  );
  return new KeyMismatchError(
    `Refusing to start: the keys do not match the database.\n${lines.join('\n')}\n` +
      `Set ${names.join(' and ')} to the value(s) the database was created with (the environment of its first ` +
      `start, or the keys.json in the DATA_DIR it was first run with), or point DATABASE_URL/DATA_DIR at the ` +
      `database that belongs to these keys. ${rotating(names)}`,
  );
}

/**
 * Checks that the keys are the database's: the check values it keeps (of the keys it was created with, or of those
 * `rekey` last moved it to) must be of a key in each ring, the current one or an accepted one. On the first start it
 * writes the current keys' values. A database from before the check has none: if it holds an encrypted secret, the
 * ring must open it before the values are written. Throws KeyMismatchError naming each variable that does not match.
 */
export async function verifyKeys(db: Kysely<DB>, keys: Keys, sources: KeySources): Promise<'written' | 'matched'> {
  const current = { jwt_secret_check: keyCheckValue(keys.jwtSecret.key), encryption_key_check: keyCheckValue(keys.encryptionKey.key) };
  let stored = await readKeyCheck(db);
  let outcome: 'written' | 'matched' = 'matched';
  if (!stored) {
    const sealed = await anyEncryptedSecret(db);
    if (sealed !== undefined) {
      try {
        decrypt(keys.encryptionKey, sealed);
      } catch {
        throw mismatch(['ENCRYPTION_KEY'], sources);
      }
    }
    await insertKeyCheck(db, current);
    // another process may have written its own values first: compare with what is stored, not with ours
    stored = await readKeyCheck(db);
    outcome = 'written';
  }
  if (!stored) throw new Error('the key check row could not be written');
  const wrong: (keyof KeySources)[] = [];
  const { jwt_secret_check: jwt, encryption_key_check: encryption } = stored;
  if (!checkOf(keys.jwtSecret).some((value) => safeEqual(jwt, value))) wrong.push('JWT_SECRET');
  if (!checkOf(keys.encryptionKey).some((value) => safeEqual(encryption, value))) wrong.push('ENCRYPTION_KEY');
  if (wrong.length > 0) throw mismatch(wrong, sources);
  return outcome;
}

export type RekeyOutcome = { resealed: number; unreadable: { table: SealedTable; column: string; id: string }[]; checkMoved: boolean };

/**
 * The step of a rotation that retires the old keys: every stored secret not sealed with the current ENCRYPTION_KEY
 * is opened with the ring and sealed again with it (each row compared and set, so a change made meanwhile wins and is
 * already sealed with the current key), then the database's check values move to the current keys, after which a
 * start without the old keys is accepted and one with only the old keys is refused. A value no key of the ring opens
 * is reported, and the check values then stay where they were. Run it again at will: it does nothing more.
 */
export async function rekey(db: Kysely<DB>, keys: Keys, batch = 500): Promise<RekeyOutcome> {
  await verifyKeys(db, keys, { JWT_SECRET: 'the configuration', ENCRYPTION_KEY: 'the configuration' });
  const ring = keys.encryptionKey;
  const prefix = `v2:${ring.kid}:`;
  const outcome: RekeyOutcome = { resealed: 0, unreadable: [], checkMoved: false };
  for (const [table, columns] of Object.entries(SEALED_COLUMNS) as [SealedTable, readonly string[]][]) {
    for (const column of columns) {
      let after: string | undefined;
      for (;;) {
        const values = await sealedOtherwise(db, table, column, prefix, after, batch);
        if (values.length === 0) break;
        for (const value of values) {
          let plain: string;
          try {
            plain = decrypt(ring, value.sealed);
          } catch {
            outcome.unreadable.push({ table, column, id: value.id });
            continue;
          }
          if (await resealOne(db, table, column, value, encrypt(ring, plain))) outcome.resealed++;
        }
        after = values.at(-1)!.id;
      }
    }
  }
  if (outcome.unreadable.length === 0) {
    await replaceKeyCheck(db, { jwt_secret_check: keyCheckValue(keys.jwtSecret.key), encryption_key_check: keyCheckValue(ring.key) });
    outcome.checkMoved = true;
  }
  return outcome;
}
