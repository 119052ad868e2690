import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.ts';

/** A key and its id: the first 8 characters of an HMAC of the key, so an id needs no configuration and tells nothing. */
export type RingKey = { key: Buffer; kid: string };

/**
 * The keys of one purpose: `key` signs and seals; `accepted` (the key being retired, or the one coming next) are
 * only used to verify and to open, so that instances started with different keys understand each other during a
 * rotation (docs/deployment.md, "Rotating the keys").
 */
export type KeyRing = RingKey & { accepted: RingKey[] };

export type Keys = { jwtSecret: KeyRing; encryptionKey: KeyRing };

export const keyId = (key: Buffer): string => crypto.createHmac('sha256', key).update('partner-dashboard key id').digest('base64url').slice(0, 8);

/** A ring from the current key and those also accepted (the current one and repeats left out). */
export function keyRing(current: Buffer, accepted: Buffer[] = []): KeyRing {
  const kid = keyId(current);
  const others = new Map<string, RingKey>();
  for (const key of accepted) {
    const id = keyId(key);
    if (id !== kid) others.set(id, { key, kid: id });
  }
  return { key: current, kid, accepted: [...others.values()] };
}

/** New random keys, none accepted besides (tests and benchmarks). */
export const randomKeys = (): Keys => ({ jwtSecret: keyRing(crypto.randomBytes(32)), encryptionKey: keyRing(crypto.randomBytes(32)) });

/** Every key of a ring, the current one first. */
export const ringKeys = (ring: KeyRing): RingKey[] => [{ key: ring.key, kid: ring.kid }, ...ring.accepted];

const decodeList = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .filter((v) => v.trim() !== '')
    .map((v) => Buffer.from(v.trim(), 'base64'));

/**
 * The signing and encryption keys: from the environment when given, otherwise generated once and kept in
 * DATA_DIR/keys.json (readable by the owner only). Production refuses to start without them (config.ts).
 * JWT_SECRET_ACCEPTED and ENCRYPTION_KEY_ACCEPTED add keys that are accepted but never used to sign or seal.
 */
export async function loadKeys(
  config: Pick<Config, 'JWT_SECRET' | 'ENCRYPTION_KEY' | 'JWT_SECRET_ACCEPTED' | 'ENCRYPTION_KEY_ACCEPTED' | 'dataDir'>,
): Promise<Keys> {
  const rings = (jwtSecret: string, encryptionKey: string): Keys => ({
    jwtSecret: keyRing(Buffer.from(jwtSecret, 'base64'), decodeList(config.JWT_SECRET_ACCEPTED)),
    encryptionKey: keyRing(Buffer.from(encryptionKey, 'base64'), decodeList(config.ENCRYPTION_KEY_ACCEPTED)),
  });
  if (config.JWT_SECRET && config.ENCRYPTION_KEY) return rings(config.JWT_SECRET, config.ENCRYPTION_KEY);
  const file = path.join(config.dataDir, 'keys.json');
  let stored: { jwtSecret: string; encryptionKey: string };
  try {
    stored = JSON.parse(await fs.readFile(file, 'utf8')) as typeof stored;
  } catch {
    stored = { jwtSecret: crypto.randomBytes(32).toString('base64'), encryptionKey: crypto.randomBytes(32).toString('base64') };
    await fs.mkdir(config.dataDir, { recursive: true });
    await fs.writeFile(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
  }
  return rings(config.JWT_SECRET ?? stored.jwtSecret, config.ENCRYPTION_KEY ?? stored.encryptionKey);
}

/** AES-256-GCM with the ring's current key; the output is "v2:" + key id + ":" + base64(iv | tag | ciphertext). */
export function encrypt(ring: KeyRing, plaintext: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', ring.key, iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return `v2:${ring.kid}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
}

function open(key: Buffer, body: string): string {
  const raw = Buffer.from(body, 'base64');
  const decipher = crypto.createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}

/** Opens a value sealed by `encrypt` with the key it names; a "v1:" value (from before key ids) is tried with each key of the ring. */
export function decrypt(ring: KeyRing, sealed: string): string {
  if (sealed.startsWith('v2:')) {
    const [head, kid] = /^v2:([A-Za-z0-9_-]{8}):/.exec(sealed) ?? [];
    const found = ringKeys(ring).find((k) => k.kid === kid);
    if (!head || !found) throw new Error(`sealed with key ${kid ?? '?'}, which is not among the keys in use`);
    return open(found.key, sealed.slice(head.length));
  }
  if (!sealed.startsWith('v1:')) throw new Error('unknown ciphertext version');
  let failure: unknown;
  for (const { key } of ringKeys(ring)) {
    try {
      return open(key, sealed.slice(3));
    } catch (err) {
      failure = err;
    }
  }
  throw failure;
}
