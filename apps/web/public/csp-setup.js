// A plain script in <head>, so it runs before any of the portal's modules (module scripts wait for the page).
// zod compiles its object parsers with new Function() unless told not to; under the server's Content-Security-Policy
// (script-src 'self', no 'unsafe-eval') that attempt is blocked and reported as a violation. zod reads this object
// when it loads.
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });
