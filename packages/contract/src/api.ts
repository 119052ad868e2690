/** Where the API lives (the spec's "portal API base"): the server mounts its routes here, the portal calls here. */
export const API_PREFIX = '/api/v1';
