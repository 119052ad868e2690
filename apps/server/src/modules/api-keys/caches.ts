/** The cache-bus names of the decrypted keys (by key id) and of each partner's allowed addresses (by partner id). */
export const API_KEY_CACHE = 'api-key';
export const ALLOWED_IPS_CACHE = 'allowed-ips';
