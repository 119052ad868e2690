import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import { ConfigError } from '../config.ts';
import { anyEncryptedSecret, insertKeyCheck, readKeyCheck } from '../db/key-check.repository.ts';
import type { DB } from '../db/schema.ts';
import { decrypt, type Keys } from './keys.ts';
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

function mismatch(names: (keyof KeySources)[], sources: KeySources): KeyMismatchError {
  const lines = names.map(
    (name) => `  ${name}: not the key this database was created with (in use: the one from ${sources[name]}); ` + `with it ${CONSEQUENCE[name]}.`,
  );
  return new KeyMismatchError(
    `Refusing to start: the keys do not match the database.\n${lines.join('\n')}\n` +
      `Set ${names.join(' and ')} to the value(s) the database was created with (the environment of its first ` +
      `start, or the keys.json in the DATA_DIR it was first run with), or point DATABASE_URL/DATA_DIR at the ` +
      `database that belongs to these keys.`,
  );
}

/**
 * Checks that the keys are the ones the database was created with, and on the first start writes their check
 * values. A database from before the check has none: if it holds an encrypted secret, ENCRYPTION_KEY must open
 * it before the values are written. Throws KeyMismatchError naming each variable that does not match.
 */
export async function verifyKeys(db: Kysely<DB>, keys: Keys, sources: KeySources): Promise<'written' | 'matched'> {
  const current = { jwt_secret_check: keyCheckValue(keys.jwtSecret), encryption_key_check: keyCheckValue(keys.encryptionKey) };
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
  if (!safeEqual(stored.jwt_secret_check, current.jwt_secret_check)) wrong.push('JWT_SECRET');
  if (!safeEqual(stored.encryption_key_check, current.encryption_key_check)) wrong.push('ENCRYPTION_KEY');
  if (wrong.length > 0) throw mismatch(wrong, sources);
  return outcome;
}
