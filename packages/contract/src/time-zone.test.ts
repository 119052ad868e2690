import { describe, expect, it } from 'vitest';
import { dayInZone, dayRangeInZone, dayStartInZone, isKnownTimeZone } from './time-zone.ts';

describe('time zones', () => {
  it('knows IANA zones and rejects the rest', () => {
    expect(isKnownTimeZone('Africa/Nairobi')).toBe(true);
    expect(isKnownTimeZone('UTC')).toBe(true);
    expect(isKnownTimeZone('Mars/Olympus')).toBe(false);
    expect(isKnownTimeZone('')).toBe(false);
  });

  it('a UTC day is midnight to midnight UTC', () => {
    const { from, to } = dayRangeInZone('2026-11-01', '2026-11-30');
    expect(from.toISOString()).toBe('2026-11-01T00:00:00.000Z');
    expect(to.toISOString()).toBe('2026-12-01T00:00:00.000Z');
  });

  it('covers the first and last days there are (years below 100 are not read as 19xx)', () => {
    expect(dayRangeInZone('0001-01-01', '9999-12-31')).toEqual({ from: new Date('0001-01-01T00:00:00Z'), to: new Date('+010000-01-01T00:00:00Z') });
    expect(dayStartInZone('0099-03-01', 'Africa/Nairobi').getUTCFullYear()).toBe(99);
  });

  it('a Nairobi day begins at 21:00 UTC the day before', () => {
    const { from, to } = dayRangeInZone('2026-11-16', '2026-11-16', 'Africa/Nairobi');
    expect(from.toISOString()).toBe('2026-11-15T21:00:00.000Z');
    expect(to.toISOString()).toBe('2026-11-16T21:00:00.000Z');
  });

  it('New York days follow daylight saving time (spring forward and fall back)', () => {
    // 2026-03-08: clocks go from 02:00 EST to 03:00 EDT; the day is 23 hours long
    const spring = dayRangeInZone('2026-03-08', '2026-03-08', 'America/New_York');
    expect(spring.from.toISOString()).toBe('2026-03-08T05:00:00.000Z');
    expect(spring.to.toISOString()).toBe('2026-03-09T04:00:00.000Z');
    // 2026-11-01: clocks go back from 02:00 EDT to 01:00 EST; the day is 25 hours long
    const fall = dayRangeInZone('2026-11-01', '2026-11-01', 'America/New_York');
    expect(fall.from.toISOString()).toBe('2026-11-01T04:00:00.000Z');
    expect(fall.to.toISOString()).toBe('2026-11-02T05:00:00.000Z');
  });

  it('an instant falls on its day in the zone', () => {
    expect(dayInZone(new Date('2026-11-15T22:30:00Z'), 'Africa/Nairobi')).toBe('2026-11-16');
    expect(dayInZone(new Date('2026-11-15T22:30:00Z'))).toBe('2026-11-15');
    expect(dayInZone(new Date('2026-03-08T04:59:00Z'), 'America/New_York')).toBe('2026-03-07');
    expect(dayStartInZone('2026-01-01', 'Asia/Tokyo').toISOString()).toBe('2025-12-31T15:00:00.000Z');
  });
});
