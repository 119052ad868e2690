import { types } from 'node:util';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ROLES, Role } from '@portal/contract/domain';
import { PartnerProfile } from '@portal/contract/partner';
import { Email } from '@portal/contract/auth';
import { lazySchema } from './lazy-schema.ts';

describe('lazySchema', () => {
  it('builds the schema on the first read only, once', () => {
    const build = vi.fn(() => z.object({ name: z.string(), count: z.number().int() }));
    const schema = lazySchema(build);
    expect(build).not.toHaveBeenCalled();
    expect(schema.parse({ name: 'a', count: 2 })).toEqual({ name: 'a', count: 2 });
    expect(schema.safeParse({ name: 'a', count: 2.5 }).success).toBe(false);
    expect(build).toHaveBeenCalledTimes(1);
  });

  it('reads as the schema itself: its methods, its fields, instanceof, a place inside other schemas', () => {
    const inner = lazySchema(() => z.object({ id: z.string().uuid() }));
    const outer = z.object({ inner, list: z.array(inner).max(2) });
    expect(inner instanceof z.ZodObject).toBe(true);
    expect(Object.keys(inner.shape)).toEqual(['id']);
    expect({ ...inner.shape }).toHaveProperty('id');
    expect('shape' in inner).toBe(true);
    const extended = inner.extend({ name: z.string() });
    expect(extended.parse({ id: '6f1c1a52-3d3e-4c9a-9a43-0b3f6f1d2a10', name: 'n' })).toHaveProperty('name', 'n');
    const id = '6f1c1a52-3d3e-4c9a-9a43-0b3f6f1d2a10';
    expect(outer.parse({ inner: { id }, list: [{ id }] })).toEqual({ inner: { id }, list: [{ id }] });
    const refused = outer.safeParse({ inner: { id: 'nope' }, list: [] });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.path).toEqual(['inner', 'id']);
  });
});

describe('the contract in the portal', () => {
  it('holds its schemas lazily, and its plain values and functions as they are', () => {
    // the build (vite.config.ts, lazyContractSchemas) wraps the module-level schemas, whatever builds them
    expect(types.isProxy(PartnerProfile)).toBe(true);
    expect(types.isProxy(Role)).toBe(true);
    expect(types.isProxy(Email)).toBe(true);
    expect(types.isProxy(ROLES)).toBe(false);
    expect(ROLES).toEqual(['admin', 'treasury', 'view']);
  });

  it('parses as the contract says', () => {
    expect(Role.options).toEqual(['admin', 'treasury', 'view']);
    expect(Role.safeParse('owner').success).toBe(false);
    expect(Email.parse('  Ada@Example.COM ')).toBe('ada@example.com');
    expect(PartnerProfile.safeParse({ partner: {} }).success).toBe(false);
  });
});
