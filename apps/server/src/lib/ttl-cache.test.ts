import { describe, expect, it, vi } from 'vitest';
import { TtlCache } from './ttl-cache.ts';

describe('TtlCache', () => {
  it('serves a value until it expires, and loads again after', async () => {
    let now = 0;
    const cache = new TtlCache<number>(1000, 10, () => now);
    const load = vi.fn(async () => now);
    expect(await cache.get('a', load)).toBe(0);
    now = 999;
    expect(await cache.get('a', load)).toBe(0);
    now = 1000;
    expect(await cache.get('a', load)).toBe(1000);
    expect(load).toHaveBeenCalledTimes(2);
  });
  it('forgets a deleted key and keeps at most maxEntries', async () => {
    const cache = new TtlCache<string>(60_000, 2);
    await cache.get('a', async () => 'a1');
    cache.delete('a');
    expect(await cache.get('a', async () => 'a2')).toBe('a2');
    await cache.get('b', async () => 'b');
    await cache.get('c', async () => 'c');
    expect(await cache.get('a', async () => 'a3')).toBe('a3');
  });
  it('peeks at a fresh entry without loading, and at nothing once it expired', async () => {
    let now = 0;
    const cache = new TtlCache<string | undefined>(1000, 10, () => now);
    expect(cache.peek('a')).toBeUndefined();
    await cache.get('a', async () => undefined);
    expect(cache.peek('a')).toEqual({ value: undefined });
    now = 1000;
    expect(cache.peek('a')).toBeUndefined();
  });
});
