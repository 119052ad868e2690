import { describe, expect, it } from 'vitest';
import { utcText } from './notifications.service.ts';

describe('a time in a notification', () => {
  it('says a time in UTC as a mail writes it', () => {
    expect(utcText(new Date('2026-11-26T09:05:00Z'))).toBe('Nov 26, 2026, 09:05 UTC');
  });
});
