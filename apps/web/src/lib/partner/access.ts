import type { Partner } from '@portal/contract/partner';

type PartnerKind = Pick<Partner, 'isB2B' | 'isCommercial' | 'isWhitelistedCommercial'>;

/**
 * Whether the partner's users may use the balance screen (portal-core §1, §2): B2B partners, and commercial
 * partners that are whitelisted. One rule for the navigation's Balance item and for the low-balance banner, so a
 * commercial partner that is not whitelisted (Baobab) is never told to top up a balance it has no screen for.
 */
export const hasBalance = (partner: PartnerKind | undefined) => !!partner && (partner.isB2B || partner.isWhitelistedCommercial);
