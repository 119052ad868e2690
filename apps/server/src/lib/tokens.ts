import crypto from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import type { AccessClaims } from '@portal/contract/auth';
import type { Role } from '@portal/contract/domain';
import { unauthorized } from './errors.ts';
import { AUTH_MESSAGES } from '@portal/contract/auth';

export const ACCESS_TOKEN_SECONDS = 15 * 60;
const ISSUER = 'partner-dashboard';

export async function signAccessToken(
  secret: Buffer,
  claims: { sub: string; pid: string; role: Role; email: string; name: string; sid: string },
  seconds = ACCESS_TOKEN_SECONDS,
): Promise<string> {
  return new SignJWT({ pid: claims.pid, role: claims.role, email: claims.email, name: claims.name, sid: claims.sid })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.sub)
    .setIssuer(ISSUER)
    .setIssuedAt()
    .setExpirationTime(`${seconds}s`)
    .sign(secret);
}

/**
 * Verifies signature (HS256 only: `none` and other algorithms are refused), issuer and expiry. A token without an
 * expiry, an issue time or a session is refused: every token we sign has them.
 */
export async function verifyAccessToken(secret: Buffer, token: string): Promise<AccessClaims> {
  try {
    const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256'], issuer: ISSUER, requiredClaims: ['exp', 'iat', 'sub'] });
    if (typeof payload.sub !== 'string' || typeof payload.pid !== 'string' || typeof payload.role !== 'string' || typeof payload.sid !== 'string') {
      throw unauthorized(AUTH_MESSAGES.invalidToken, 'InvalidToken');
    }
    return payload as unknown as AccessClaims;
  } catch (err) {
    if (err instanceof joseErrors.JWTExpired) throw unauthorized(AUTH_MESSAGES.tokenExpired, 'TokenExpired');
    throw unauthorized(AUTH_MESSAGES.invalidToken, 'InvalidToken');
  }
}

/** sha256 of a random secret: what the database keeps of sessions, refresh tokens and codes. */
export const sha256 = (value: string) => crypto.createHash('sha256').update(value).digest('base64url');
export const randomToken = (bytes = 32) => crypto.randomBytes(bytes).toString('base64url');
export const safeEqual = (a: string, b: string) => {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && crypto.timingSafeEqual(ab, bb);
};
