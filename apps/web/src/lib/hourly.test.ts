import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { everyHourOnTheHour, msToNextHour } from './hourly.ts';

describe('hourly shared data load', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('waits for the next hour boundary, then runs hourly', () => {
    const start = Date.parse('2026-11-22T10:45:00Z');
    vi.setSystemTime(start);
    expect(msToNextHour(start)).toBe(15 * 60_000);
    const task = vi.fn();
    const stop = everyHourOnTheHour(task, start);
    vi.advanceTimersByTime(15 * 60_000 - 1);
    expect(task).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(task).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(3_600_000 * 2);
    expect(task).toHaveBeenCalledTimes(3);
    stop();
    vi.advanceTimersByTime(3_600_000 * 5);
    expect(task).toHaveBeenCalledTimes(3);
  });
});
