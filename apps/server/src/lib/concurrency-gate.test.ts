import { describe, expect, it } from 'vitest';
import { concurrencyGate } from './concurrency-gate.ts';

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
