import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createIdleTimer } from './idle-timer.ts';

describe('idle timer', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const make = () => {
    const onWarn = vi.fn();
    const onLogout = vi.fn();
    const timer = createIdleTimer({ warnAfterMs: 300_000, logoutAfterMs: 10_000, onWarn, onLogout });
    return { onWarn, onLogout, timer };
  };

  it('warns after 300 s idle and logs out 10 s later', () => {
    const { onWarn, onLogout } = make();
    vi.advanceTimersByTime(299_999);
    expect(onWarn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onWarn).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(9_999);
    expect(onLogout).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onLogout).toHaveBeenCalledTimes(1);
  });

  it('starts again on activity', () => {
    const { onWarn, timer } = make();
    vi.advanceTimersByTime(200_000);
    timer.reset();
    vi.advanceTimersByTime(200_000);
    expect(onWarn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(100_000);
    expect(onWarn).toHaveBeenCalledTimes(1);
  });

  it('closing the warning cancels the logout', () => {
    const { onWarn, onLogout, timer } = make();
    vi.advanceTimersByTime(300_000);
    expect(onWarn).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(5_000);
    timer.reset();
    vi.advanceTimersByTime(10_000);
    expect(onLogout).not.toHaveBeenCalled();
  });

  it('does nothing once stopped', () => {
    const { onWarn, onLogout, timer } = make();
    timer.stop();
    vi.advanceTimersByTime(1_000_000);
    timer.reset();
    vi.advanceTimersByTime(1_000_000);
    expect(onWarn).not.toHaveBeenCalled();
    expect(onLogout).not.toHaveBeenCalled();
  });
});
