import { describe, expect, it } from 'vitest';
import { ROLES, type Role } from './domain.ts';
import { PERMISSIONS, can, rolesFor, type Action } from './permissions.ts';

const ACTIONS = Object.keys(PERMISSIONS) as Action[];
const allowed = (role: Role) => ACTIONS.filter((action) => can(role, action)).sort();

describe('the permission table (portal-core §6)', () => {
  it('lets an admin do everything', () => {
    expect(allowed('admin')).toEqual([...ACTIONS].sort());
  });

  it('lets treasury open and manage wallets, move money (test money too) and read, and nothing of the team, settings, keys, webhooks or countries', () => {
    expect(allowed('treasury')).toEqual(
      ['addTestFunds', 'assignDepositAddresses', 'initiatePayments', 'manageFiatWallets', 'manageWallets', 'openWallets', 'readPayments', 'withdraw'].sort(),
    );
  });

  it('lets a view user only read', () => {
    expect(allowed('view')).toEqual(['readPayments']);
  });

  it("keeps the spec's difference: treasury opens wallet management, the navigation lists it for admins only", () => {
    expect(can('treasury', 'openWallets')).toBe(true);
    expect(can('treasury', 'walletsInNav')).toBe(false);
    expect(can('admin', 'walletsInNav')).toBe(true);
  });

  it('lets nobody who is not signed in do anything', () => {
    for (const action of ACTIONS) {
      expect(can(undefined, action)).toBe(false);
      expect(can(null, action)).toBe(false);
    }
  });

  it('names only roles that exist, each once, and gives them back by action', () => {
    for (const action of ACTIONS) {
      const roles = rolesFor(action);
      expect(roles.length).toBeGreaterThan(0);
      expect(new Set(roles).size).toBe(roles.length);
      for (const role of roles) expect(ROLES).toContain(role);
      expect(ROLES.filter((role) => can(role, action))).toEqual([...roles].sort((a, b) => ROLES.indexOf(a) - ROLES.indexOf(b)));
    }
  });
});
