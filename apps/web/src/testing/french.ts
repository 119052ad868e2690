import type { Role } from '@portal/contract/domain';
import { afterEach, beforeEach } from 'vitest';
import { setLanguage } from '../lib/i18n.ts';
import { signIn } from './factories.ts';

/**
 * Called in a describe block: each of its tests runs in French, signed in with `role` when one is given, and the
 * language is English again after it.
 */
export function inFrench(role?: Role): void {
  beforeEach(async () => {
    await setLanguage('fr');
    if (role) signIn(role);
  });
  afterEach(() => setLanguage('en'));
}
