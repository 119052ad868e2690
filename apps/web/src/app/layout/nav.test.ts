import { describe, expect, it } from 'vitest';
import { ALL_FEATURE_FLAGS, NO_FEATURE_FLAGS } from '@portal/contract/domain';
import { frameMessages } from '../../lib/frame-messages.ts';
import { translator } from '../../lib/i18n.ts';
import { isActive, navGroups } from './nav.ts';

const B2B = { isB2B: true, isCommercial: false, isWhitelistedCommercial: false };
// the navigation holds keys: read here in English, as the layout draws them
const t = translator(frameMessages, 'en');
const labels = (groups: ReturnType<typeof navGroups>) => groups.map((g) => `${t(g.title)}: ${g.items.map((i) => t(i.label)).join(', ')}`);

describe('side navigation', () => {
  it('B2B with every flag, admin', () => {
    expect(labels(navGroups(B2B, ALL_FEATURE_FLAGS, 'admin'))).toEqual([
      'Your business: Overview, Transactions, Enabled Countries, Coverage, Balance',
      'Developers tools: API Keys, Webhooks',
      'Your account: Wallet Management, Request Data Download, Settings',
    ]);
  });
  it('B2B with every flag, treasury and view: the Overview as for admins (every role reads the tables), no API keys, no wallet management', () => {
    for (const role of ['treasury', 'view'] as const) {
      expect(labels(navGroups(B2B, ALL_FEATURE_FLAGS, role))).toEqual([
        'Your business: Overview, Transactions, Enabled Countries, Coverage, Balance',
        'Developers tools: Webhooks',
        'Your account: Request Data Download, Settings',
      ]);
    }
  });
  it('B2B with every flag off (Lean Pay): no developer tools group', () => {
    expect(labels(navGroups(B2B, NO_FEATURE_FLAGS, 'admin'))).toEqual(['Your business: Overview, Transactions, Balance', 'Your account: Settings']);
  });
  it('commercial, whitelisted, payments view and wallet management on (Kora Trade)', () => {
    const kora = { isB2B: false, isCommercial: true, isWhitelistedCommercial: true };
    expect(labels(navGroups(kora, { ...NO_FEATURE_FLAGS, paymentsViewEnabled: true, walletManagementEnabled: true }, 'admin'))).toEqual([
      'Your business: Trades, Initiate payments, Balance, Wallet Management',
      'Your account: Settings',
    ]);
  });
  it('commercial, not whitelisted (Baobab OTC): trades only', () => {
    expect(labels(navGroups({ isB2B: false, isCommercial: true, isWhitelistedCommercial: false }, NO_FEATURE_FLAGS, 'admin'))).toEqual([
      'Your business: Trades',
      'Your account: Settings',
    ]);
  });
  it('marks an item active when the path starts with its link', () => {
    expect(isActive('/balance/fiat-wallets', '/balance')).toBe(true);
    expect(isActive('/transactions', '/balance')).toBe(false);
  });
});
