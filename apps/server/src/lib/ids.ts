import crypto from 'node:crypto';

/** The namespace of this product's name-based ids (a fixed random uuid). */
const NAMESPACE = Buffer.from('6f1c2b7e94d84c0a9d3b5e2f7a1c8d40', 'hex');

/**
 * A stable id made from a name (RFC 4122 version 5: SHA-1 of a namespace and the name): the same name always gives
 * the same id, so that reference data and the rows derived from it keep their ids on every database.
 */
export function nameUuid(name: string): string {
  const hash = crypto.createHash('sha1').update(NAMESPACE).update(name, 'utf8').digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
