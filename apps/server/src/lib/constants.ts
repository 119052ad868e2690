/** Where the API lives (the spec's "portal API base"). */
export const API_PREFIX = '/api/v1';
