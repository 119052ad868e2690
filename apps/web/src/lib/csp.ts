import { setNonce } from 'get-nonce';

/*
 * The server sends a strict Content-Security-Policy (apps/server/src/plugins/security-headers.ts): scripts and
 * styles only from the portal's own files. public/csp-setup.js, a plain script in index.html, switches zod's
 * new Function() parsers off before any module loads; this module, imported first by main.tsx, does the rest.
 *
 * Radix's dialogs add a <style> element for the scroll lock. The server gives each page a nonce for it in
 * <meta name="csp-nonce" nonce="…"> (the browser hides the attribute; the property keeps the value).
 */
const nonce = document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.nonce;
if (nonce) setNonce(nonce);
