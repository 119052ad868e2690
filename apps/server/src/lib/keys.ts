import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.ts';

export type Keys = { jwtSecret: Buffer; encryptionKey: Buffer };

/**
 * The signing and encryption keys: from the environment when given, otherwise generated once and kept in
 * DATA_DIR/keys.json (readable by the owner only). Production refuses to start without them (config.ts).
 */
export async function loadKeys(config: Pick<Config, 'JWT_SECRET' | 'ENCRYPTION_KEY' | 'dataDir'>): Promise<Keys> {
  if (config.JWT_SECRET && config.ENCRYPTION_KEY) {
    return { jwtSecret: Buffer.from(config.JWT_SECRET, 'base64'), encryptionKey: Buffer.from(config.ENCRYPTION_KEY, 'base64') };
  }
  const file = path.join(config.dataDir, 'keys.json');
  let stored: { jwtSecret: string; encryptionKey: string };
  try {
    stored = JSON.parse(await fs.readFile(file, 'utf8')) as typeof stored;
  } catch {
    stored = { jwtSecret: crypto.randomBytes(32).toString('base64'), encryptionKey: crypto.randomBytes(32).toString('base64') };
    await fs.mkdir(config.dataDir, { recursive: true });
    await fs.writeFile(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
  }
  return {
    jwtSecret: Buffer.from(config.JWT_SECRET ?? stored.jwtSecret, 'base64'),
    encryptionKey: Buffer.from(config.ENCRYPTION_KEY ?? stored.encryptionKey, 'base64'),
  };
}

/** AES-256-GCM; the output is "v1:" + base64(iv | tag | ciphertext). */
export function encrypt(key: Buffer, plaintext: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return `v1:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
}

export function decrypt(key: Buffer, sealed: string): string {
  if (!sealed.startsWith('v1:')) throw new Error('unknown ciphertext version');
  const raw = Buffer.from(sealed.slice(3), 'base64');
  const decipher = crypto.createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}
