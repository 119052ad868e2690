import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createIdleTimer } from './idle-timer.ts';

describe('idle timer (one count for the whole browser)', () => {
  let shared: number;
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-11-26T10:00:00Z'));
    shared = Date.now();
  });
  afterEach(() => vi.useRealTimers());

  const make = () => {
    const onWarn = vi.fn();
    const onActive = vi.fn();
    const onLogout = vi.fn();
    const timer = createIdleTimer({ warnAfterMs: 300_000, logoutAfterMs: 10_000, lastActivity: () => shared, onWarn, onActive, onLogout });
    return { onWarn, onActive, onLogout, timer };
  };

  it('warns after 300 s idle with a countdown each second, and logs out 10 s later, once', () => {
    const { onWarn, onLogout } = make();
    vi.advanceTimersByTime(299_000);
    expect(onWarn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1000);
    expect(onWarn).toHaveBeenLastCalledWith(10);
    vi.advanceTimersByTime(3000);
    expect(onWarn).toHaveBeenLastCalledWith(7);
    vi.advanceTimersByTime(6000);
    expect(onLogout).not.toHaveBeenCalled();
    expect(onWarn).toHaveBeenLastCalledWith(1);
    vi.advanceTimersByTime(1000);
    expect(onLogout).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(60_000);
    expect(onLogout).toHaveBeenCalledTimes(1);
  });

  it('counts activity recorded by another tab: no warning while someone works anywhere', () => {
    const { onWarn, onLogout } = make();
    for (let minute = 1; minute <= 12; minute++) {
      vi.advanceTimersByTime(60_000);
      shared = Date.now(); // another tab recorded activity
    }
    expect(onWarn).not.toHaveBeenCalled();
    expect(onLogout).not.toHaveBeenCalled();
  });

  it('ends the warning when activity shows up (Stay signed in in another tab)', () => {
    const { onWarn, onActive, onLogout } = make();
    vi.advanceTimersByTime(305_000);
    expect(onWarn).toHaveBeenCalled();
    shared = Date.now();
    vi.advanceTimersByTime(1000);
    expect(onActive).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(20_000);
    expect(onLogout).not.toHaveBeenCalled();
  });

  it('does nothing once stopped', () => {
    const { onWarn, onLogout, timer } = make();
    timer.stop();
    vi.advanceTimersByTime(400_000);
    expect(onWarn).not.toHaveBeenCalled();
    expect(onLogout).not.toHaveBeenCalled();
  });
});
