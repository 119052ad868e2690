import { describe, expect, it } from 'vitest';
import { WiringError, checkWiring, type RuntimeDeps } from './composition.ts';

/** Every runtime dependency, as placeholders: the check looks at presence only. */
const wired = (): Record<keyof RuntimeDeps, unknown> => ({
  config: {},
  database: {},
  keys: {},
  mailer: {},
  storage: {},
  cacheBus: {},
  liveBus: {},
  mailQueue: {},
  clock: Date.now,
  log: {},
  boss: null,
});

describe('the composition root checks its wiring before it builds anything', () => {
  it('accepts every dependency, an explicit "no job queue" (null) included', () => {
    expect(() => checkWiring(wired() as Partial<RuntimeDeps>)).not.toThrow();
  });

  it('refuses a forgotten job queue, naming it and what needs it', () => {
    const deps = wired();
    delete (deps as Partial<typeof deps>).boss;
    expect(() => checkWiring(deps as Partial<RuntimeDeps>)).toThrow(WiringError);
    expect(() => checkWiring(deps as Partial<RuntimeDeps>)).toThrow(/boss is missing \(needed by payments, withdrawals, wallet screening/);
  });

  it('names every missing dependency at once', () => {
    expect(() => checkWiring({ clock: Date.now })).toThrow(/config is missing.*database is missing.*mailer is missing/);
  });
});
