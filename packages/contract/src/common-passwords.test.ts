import { describe, expect, it } from 'vitest';
import { passwordChecks, passwordProblem } from './auth.ts';
import { COMMON_PASSWORD_COUNT, isCommonPassword } from './common-passwords.ts';

const TOO_COMMON = 'This password is too common. Choose one that is harder to guess.';

describe('common passwords', () => {
  it('is a real list, not a handful of words', () => {
    expect(COMMON_PASSWORD_COUNT).toBeGreaterThan(40_000);
    expect(isCommonPassword('password')).toBe(true);
    expect(isCommonPassword('kilimanjaro-peak')).toBe(false);
  });

  it('refuses a common word dressed up with capitals, digits and symbols', () => {
    for (const pw of ['Password123!', 'Password1234', 'P@ssw0rd2026!', 'Sunshine2026!', 'Qwertyuiop12!', 'Letmein!!2026', 'Football#1234']) {
      expect(passwordProblem(pw, 'someone@example.com', isCommonPassword), pw).toBe(TOO_COMMON);
    }
  });

  it('accepts passwords that are not on the list', () => {
    for (const pw of ['Portal-demo-2026!', 'Kilimanjaro-Peak-77', 'Baobab-Sunrise-2026', 'Zambezi-Falls-2031', 'Temp-pass-2026!']) {
      expect(passwordProblem(pw, 'someone@example.com', isCommonPassword), pw).toBeUndefined();
    }
  });

  it('ticks each rule, and leaves the list rule open until the list is there', () => {
    expect(passwordChecks('', 'a@b.test')).toEqual({ length: false, mix: false, notEmail: false, notCommon: undefined });
    expect(passwordChecks('Password123!', 'jo@b.test')).toEqual({ length: true, mix: true, notEmail: true, notCommon: undefined });
    expect(passwordChecks('Password123!', 'jo@b.test', isCommonPassword).notCommon).toBe(false);
    expect(passwordChecks('Kilimanjaro-Peak-77', 'jo@b.test', isCommonPassword)).toEqual({ length: true, mix: true, notEmail: true, notCommon: true });
    expect(passwordChecks('kilimanjaro-Peak-77', 'kilimanjaro@b.test', isCommonPassword).notEmail).toBe(false);
    // the built-in patterns count without the list
    expect(passwordChecks('aaaaaaaaaaaaaa', 'jo@b.test').notCommon).toBe(false);
  });
});
