import { beforeEach, describe, expect, it } from 'vitest';
import { profile } from '../../testing/factories.ts';
import { forgetPartner, rememberedPartner, rememberPartner } from './remembered.ts';

const USER = '0a5e0001-0000-4000-8000-000000000001';

describe('the partner remembered for the next first paint', () => {
  beforeEach(() => localStorage.clear());

  it('gives back the partner this build remembered for this user, and nobody else', () => {
    const p = profile({ name: 'Acme Remit' });
    rememberPartner(USER, p);
    expect(rememberedPartner(USER)).toEqual({ partner: p.partner, featureFlags: p.featureFlags });
    expect(rememberedPartner('0a5e0001-0000-4000-8000-000000000002')).toBeUndefined();
    expect(rememberedPartner(undefined)).toBeUndefined();
    forgetPartner();
    expect(rememberedPartner(USER)).toBeUndefined();
  });

  it('ignores what another build wrote, and what is not a partner', () => {
    const p = profile();
    rememberPartner(USER, p);
    const kept = JSON.parse(localStorage.getItem('portal.frame')!) as Record<string, unknown>;
    localStorage.setItem('portal.frame', JSON.stringify({ ...kept, build: 'another build' }));
    expect(rememberedPartner(USER)).toBeUndefined();
    for (const junk of ['{', '"text"', 'null', JSON.stringify({ ...kept, partner: null }), JSON.stringify({ ...kept, featureFlags: 'all' })]) {
      localStorage.setItem('portal.frame', junk);
      expect(rememberedPartner(USER), junk).toBeUndefined();
    }
  });
});
