/** The API-keys module's face: what other modules, plugins and the composition root may use of it. */
export { apiKeyRoutes } from './api-keys.routes.ts';
export { API_DESCRIPTION, SECURITY_SCHEMES, docsTransform } from './api-docs.ts';
export { ALLOWED_IPS_CACHE, API_KEY_CACHE } from './caches.ts';
export { createAllowedIpsService } from './allowed-ips.service.ts';
export { createApiKeysService, type ApiKeyCallReads } from './api-keys.service.ts';
