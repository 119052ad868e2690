import { describe, expect, it } from 'vitest';
import { concurrencyGate, turnsPerKey } from './concurrency-gate.ts';

describe('concurrencyGate', () => {
  it('lets in at most perKey for one key and total in all, and each leave gives its place back once', () => {
    const gate = concurrencyGate({ perKey: 1, total: 2 });
    const a = gate.enter('acme');
    expect(a).toBeTypeOf('function');
    expect(gate.enter('acme')).toBeUndefined();
    const k = gate.enter('kora');
    expect(k).toBeTypeOf('function');
    expect(gate.enter('zed')).toBeUndefined();
    expect(gate.running).toBe(2);
    a!();
    a!();
    expect(gate.running).toBe(1);
    expect(gate.enter('acme')).toBeTypeOf('function');
    expect(gate.enter('zed')).toBeUndefined();
  });
});

describe('turnsPerKey', () => {
  it('lets perKey in per key, hands each turn given back to the next in line, in order, and never lets one key wait on another', async () => {
    const turns = turnsPerKey({ perKey: 2, waitMs: 1000, queue: 10 });
    const [a1, a2] = await Promise.all([turns.enter('acme'), turns.enter('acme')]);
    const order: string[] = [];
    const a3 = turns.enter('acme').then((leave) => (order.push('a3'), leave));
    const a4 = turns.enter('acme').then((leave) => (order.push('a4'), leave));
    // another key has turns of its own at once
    const k1 = await turns.enter('kora');
    expect(k1).toBeTypeOf('function');
    expect(turns.state('acme')).toEqual({ holding: 2, waiting: 2 });
    a1!();
    a1!();
    const third = await a3;
    expect(third).toBeTypeOf('function');
    expect(order).toEqual(['a3']);
    expect(turns.state('acme')).toEqual({ holding: 2, waiting: 1 });
    a2!();
    expect(await a4).toBeTypeOf('function');
    expect(order).toEqual(['a3', 'a4']);
    third!();
    (await a4)!();
    expect(turns.state('acme')).toEqual({ holding: 0, waiting: 0 });
    k1!();
    expect(turns.state('kora')).toEqual({ holding: 0, waiting: 0 });
  });

  it('answers undefined after waitMs, or at once when the line is full, and the turn is not lost', async () => {
    const turns = turnsPerKey({ perKey: 1, waitMs: 50, queue: 1 });
    const held = await turns.enter('acme');
    const late = turns.enter('acme');
    expect(await turns.enter('acme')).toBeUndefined();
    expect(await late).toBeUndefined();
    expect(turns.state('acme')).toEqual({ holding: 1, waiting: 0 });
    held!();
    const next = await turns.enter('acme');
    expect(next).toBeTypeOf('function');
    next!();
    expect(turns.state('acme')).toEqual({ holding: 0, waiting: 0 });
  });
});
