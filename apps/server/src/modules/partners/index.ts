/**
 * The partners module's face. Other modules' services read a partner only through the PartnerAccess port, handed in
 * by the composition root, which also builds the operator's tools (the CLI) from the operator service.
 */
export { partnerRoutes } from './partners.routes.ts';
export { createPartnerAccess, type PartnerAccess } from './partner-access.ts';
export { PARTNER_CACHE, createPartnerCache } from './partner-cache.ts';
export { createPartnerService, createOperatorService } from './partners.service.ts';
export { createPartnerSettingsService } from './partner-settings.service.ts';
export { ImportRefused, createDepositAddressService } from './deposit-addresses.service.ts';
export { configuredKeys } from './deposit-address-sources.ts';
export { createTestPartners, type TestPartners } from './test-partners.ts';
