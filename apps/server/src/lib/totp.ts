import { generateSecret, generateSync, generateURI } from 'otplib';

/** RFC 6238 with SHA-1, 6 digits, 30 s steps: what every authenticator app speaks. */
export const TOTP_PERIOD = 30;

export function newTotpSecret(): string {
  return generateSecret({ length: 20 });
}

export function totpUri(secret: string, account: string): string {
  return generateURI({ issuer: 'Partner Dashboard', label: account, secret });
}

export function totpCode(secret: string, step: number): string {
  return generateSync({ secret, epoch: step * TOTP_PERIOD });
}

export const currentStep = (nowMs = Date.now()) => Math.floor(nowMs / 1000 / TOTP_PERIOD);

/**
 * The time step a code matches, allowing one step of clock drift either side, or undefined. A code is accepted once
 * only: the caller refuses any step at or before the last one it accepted for that user.
 */
export function matchTotp(secret: string, code: string, nowMs = Date.now()): number | undefined {
  const now = currentStep(nowMs);
  for (const step of [now, now - 1, now + 1]) {
    if (totpCode(secret, step) === code) return step;
  }
  return undefined;
}
