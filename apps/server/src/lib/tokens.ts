import crypto from 'node:crypto';
import { SignJWT, decodeProtectedHeader, jwtVerify, errors as joseErrors } from 'jose';
import type { AccessClaims } from '@portal/contract/auth';
import type { Role } from '@portal/contract/domain';
import { unauthorized } from './errors.ts';
import { AUTH_MESSAGES } from '@portal/contract/auth';
import { ringKeys, type KeyRing } from './keys.ts';

export const ACCESS_TOKEN_SECONDS = 15 * 60;
const ISSUER = 'partner-dashboard';

/** Signs with the ring's current key and names it (`kid`), so that a ring in rotation knows which key to check with. */
export async function signAccessToken(
  ring: KeyRing,
  claims: { sub: string; pid: string; role: Role; email: string; name: string; sid: string },
  seconds = ACCESS_TOKEN_SECONDS,
): Promise<string> {
  return new SignJWT({ pid: claims.pid, role: claims.role, email: claims.email, name: claims.name, sid: claims.sid })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: ring.kid })
    .setSubject(claims.sub)
    .setIssuer(ISSUER)
    .setIssuedAt()
    .setExpirationTime(`${seconds}s`)
    .sign(ring.key);
}

/**
 * Verifies signature (HS256 only: `none` and other algorithms are refused), issuer and expiry. A token without an
 * expiry, an issue time or a session is refused: every token we sign has them. The key is the ring's key its `kid`
 * names; a token from before key ids names none and is tried with each; a key id not in the ring is refused.
 */
export async function verifyAccessToken(ring: KeyRing, token: string): Promise<AccessClaims> {
  try {
    const { kid } = decodeProtectedHeader(token);
    const candidates = ringKeys(ring).filter((k) => kid === undefined || k.kid === kid);
    for (const [i, { key }] of candidates.entries()) {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], issuer: ISSUER, requiredClaims: ['exp', 'iat', 'sub'] });
        if (typeof payload.sub !== 'string' || typeof payload.pid !== 'string' || typeof payload.role !== 'string' || typeof payload.sid !== 'string') break;
        return payload as unknown as AccessClaims;
      } catch (err) {
        if (!(err instanceof joseErrors.JWSSignatureVerificationFailed) || i === candidates.length - 1) throw err;
      }
    }
  } catch (err) {
    if (err instanceof joseErrors.JWTExpired) throw unauthorized(AUTH_MESSAGES.tokenExpired, 'TokenExpired');
  }
  throw unauthorized(AUTH_MESSAGES.invalidToken, 'InvalidToken');
}

/** sha256 of a random secret: what the database keeps of sessions, refresh tokens and codes. */
export const sha256 = (value: string) => crypto.createHash('sha256').update(value).digest('base64url');
export const randomToken = (bytes = 32) => crypto.randomBytes(bytes).toString('base64url');
export const safeEqual = (a: string, b: string) => {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && crypto.timingSafeEqual(ab, bb);
};
