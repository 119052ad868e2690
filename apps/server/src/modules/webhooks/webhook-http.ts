import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { WEBHOOK_RESPONSE_SNIPPET_MAX } from '@portal/contract/webhooks';
import { RefusedTargetError, hostOf, isPublicAddress, publicOnlyLookup } from '../../lib/ssrf.ts';

export type PostOutcome = {
  /** the receiver's status code, or null when no answer came */
  statusCode: number | null;
  durationMs: number;
  responseSnippet: string | null;
  error: string | null;
  /** worth trying again later: network errors, timeouts, 408, 429, 5xx */
  retryable: boolean;
};

/** Status codes a later attempt may fix (besides no answer at all). */
export const isRetryableStatus = (status: number) => status === 408 || status === 429 || status >= 500;

// connections to receivers are kept open between attempts; two agents per kind, one of them refusing private targets
const agents = {
  open: { http: new http.Agent({ keepAlive: true, maxSockets: 64 }), https: new https.Agent({ keepAlive: true, maxSockets: 64 }) },
  guarded: {
    http: new http.Agent({ keepAlive: true, maxSockets: 64, lookup: publicOnlyLookup }),
    https: new https.Agent({ keepAlive: true, maxSockets: 64, lookup: publicOnlyLookup }),
  },
};

/** Closes the kept-open connections (tests, shutdown). */
export function closeWebhookConnections() {
  for (const group of Object.values(agents)) for (const agent of Object.values(group)) agent.destroy();
}

function describe(err: unknown, timeoutMs: number): string {
  if (err instanceof RefusedTargetError) return `Refused: ${err.message}`;
  const e = err as NodeJS.ErrnoException;
  if (e?.code === 'WEBHOOK_TIMEOUT') return `Timed out after ${timeoutMs / 1000} s`;
  if (e?.code === 'ECONNREFUSED') return 'Connection refused';
  if (e?.code === 'ECONNRESET') return 'Connection reset';
  if (e?.code === 'ENOTFOUND' || e?.code === 'EAI_AGAIN') return 'Host not found';
  if (
    e?.code === 'CERT_HAS_EXPIRED' ||
    e?.code?.startsWith?.('ERR_TLS') ||
    e?.code === 'DEPTH_ZERO_SELF_SIGNED_CERT' ||
    e?.code === 'UNABLE_TO_VERIFY_LEAF_SIGNATURE'
  ) {
    return `TLS error: ${e.message}`;
  }
  return e?.message ? `Network error: ${e.message}` : 'Network error';
}

/**
 * POSTs a webhook body and reports what happened, never throwing. Redirects are not followed. The whole exchange
 * has `timeoutMs`; a receiver that answered its status and then stalls the body is taken at its status. With
 * `allowPrivate` false the target must be public (lib/ssrf.ts), checked on the addresses actually connected to.
 */
export function postWebhook(options: {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  allowPrivate: boolean;
}): Promise<PostOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const refused = (error: string): Promise<PostOutcome> =>
    Promise.resolve({ statusCode: null, responseSnippet: null, error, retryable: false, durationMs: elapsed() });
  let url: URL;
  try {
    url = new URL(options.url);
  } catch {
    return refused('Invalid URL');
  }
  const host = hostOf(url);
  if (!options.allowPrivate && net.isIP(host) && !isPublicAddress(host)) {
    // a literal address is connected to without any lookup: check it here
    return refused(`Refused: ${new RefusedTargetError(host, host).message}`);
  }
  return new Promise<PostOutcome>((resolve) => {
    let done = false;
    let status: number | null = null;
    let snippet = '';
    const finish = (outcome: Omit<PostOutcome, 'durationMs'>) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve({ ...outcome, durationMs: elapsed() });
    };
    /** Ends the exchange: with the status when one came (the body may be cut short), else with the error. */
    const settle = (err: unknown) => {
      if (status !== null) return finish({ statusCode: status, responseSnippet: snippet || null, error: null, retryable: isRetryableStatus(status) });
      finish({ statusCode: null, responseSnippet: null, error: describe(err, options.timeoutMs), retryable: !(err instanceof RefusedTargetError) });
    };
    const secure = url.protocol === 'https:';
    const agent = (options.allowPrivate ? agents.open : agents.guarded)[secure ? 'https' : 'http'];
    const request = (secure ? https : http).request(url, {
      method: 'POST',
      agent,
      headers: { ...options.headers, 'content-length': Buffer.byteLength(options.body) },
    });
    const timer = setTimeout(() => {
      const err = Object.assign(new Error('timeout'), { code: 'WEBHOOK_TIMEOUT' });
      settle(err);
      request.destroy(err);
    }, options.timeoutMs);
    request.on('response', (res) => {
      status = res.statusCode ?? 0;
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (snippet.length < WEBHOOK_RESPONSE_SNIPPET_MAX) snippet += chunk.slice(0, WEBHOOK_RESPONSE_SNIPPET_MAX - snippet.length);
      });
      res.on('end', () => settle(undefined));
      res.on('error', (err) => settle(err));
    });
    request.on('error', (err) => settle(err));
    request.end(options.body);
  });
}
