/**
 * The partners module's face. Other modules' services read a partner only through the PartnerAccess port, handed in
 * by the composition root; the CLI (an operator's tool) also uses the operator service and the lookups.
 */
export { partnerRoutes } from './partners.routes.ts';
export { createPartnerAccess, type PartnerAccess } from './partner-access.ts';
export { PARTNER_CACHE, createPartnerCache } from './partner-cache.ts';
export { createPartnerService, createOperatorService } from './partners.service.ts';
export { createPartnerSettingsService } from './partner-settings.service.ts';
export { ImportRefused, createDepositAddressService } from './deposit-addresses.service.ts';
export { configuredKeys } from './deposit-address-sources.ts';
export { findPartner, findPartnerByAbbreviation } from './partners.repository.ts';
