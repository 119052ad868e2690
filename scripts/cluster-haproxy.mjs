// HAProxy: the public balancer over the instances, and the database addresses (the leader, a replica) over the
// nodes; its configuration, start, runtime socket and view of the servers. Used by scripts/cluster.mjs.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { FILES, logFile, MARK, NODES } from './cluster-paths.mjs';
import { ROLES, secrets } from './cluster-roles.mjs';
import { ClusterError, HOST, alive, canConnect, portFree, portOwner, spawnDetached, waitFor, which } from './cluster-process.mjs';

/** HAProxy's maxconn: two descriptors a connection must fit under the hard limit of open files (it raises the soft one). */
function haproxyMaxconn() {
  const hard = Number(spawnSync('sh', ['-c', 'ulimit -Hn'], { encoding: 'utf8' }).stdout.trim());
  return Number.isFinite(hard) ? Math.max(256, Math.min(10_000, Math.floor((hard - 200) / 2))) : 4096;
}

/** The server's words and wait for an outage (apps/server/src/db/outage.ts). */
const OUTAGE = { message: 'The service is briefly unavailable. Please try again in a few seconds.', retryAfter: 5 };
/** HAProxy's own answer to an API call it cannot pass on: the API's error shape (ErrorBody), with a request id. */
const apiOutage = `content-type application/json hdr retry-after ${OUTAGE.retryAfter} hdr cache-control no-store lf-string '${JSON.stringify({
  code: 'ServiceUnavailable',
  message: OUTAGE.message,
  requestId: '%ID',
})}'`;
/** ... and to /metrics, which is not the public side's (the API's NotFound) */
const apiNotFound = `content-type application/json hdr cache-control no-store lf-string '${JSON.stringify({
  code: 'NotFound',
  message: 'No route for %[method] /metrics',
  requestId: '%ID',
})}'`;
/** ... and to a person opening the portal meanwhile: a page that loads the portal again after the wait. */
const pageOutage = `content-type "text/html; charset=utf-8" hdr retry-after ${OUTAGE.retryAfter} hdr cache-control no-store string '<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width"><meta http-equiv="refresh" content="${OUTAGE.retryAfter}"><title>Partner Dashboard</title><p style="font:16px system-ui,sans-serif;margin:3rem auto;max-width:30rem;padding:0 1rem">${OUTAGE.message.replace('Please try again', 'This page tries again by itself')}</p></html>'`;

function writeHaproxyConfig(state) {
  const { ports } = state;
  const servers = ports.instances.map((port, i) => `  server instance-${i + 1} ${HOST}:${port} check`);
  // a database node: its clients' route, checked on its Patroni's REST API (through the node's route, so that a node
  // cut off the network is out of both). CLUSTER_DB_ROUTES=direct (the cluster benchmark) reaches the nodes' own ports
  // instead, as on several hosts: no TCP proxy on the way, and no cut or partition reaches the clients either
  const direct = process.env.CLUSTER_DB_ROUTES === 'direct';
  const dbServers = NODES.map((node) => {
    const p = ports.nodes[node];
    return direct ? `  server ${node} ${HOST}:${p.port} check port ${p.api}` : `  server ${node} ${HOST}:${p.service} check port ${p.apiRoute}`;
  }).join('\n');
  const cfg = `# written by scripts/cluster.mjs: the balancer in front of the portal instances
global
  maxconn ${haproxyMaxconn()}
  # one thread: on a host of two cores shared with everything else, a second thread cost a third more CPU per request
  # (0.236 ms against 0.158 ms, bench/cluster.bench.ts); a balancer with cores of its own may have one thread per core
  nbthread 1
  log stdout format raw local0 info
  stats socket ${FILES.haproxySock} mode 600 level admin

defaults
  mode http
  log global
  option httplog
  # only what went wrong is logged: errors, retries, redispatches, 5xx
  option dontlog-normal
  timeout connect 2s
  # a client silent for 30 s is let go; the live stream is not silent (the server writes a comment every 15 s)
  timeout client 30s
  timeout server 1h
  timeout tunnel 1h
  timeout http-request 10s
  timeout http-keep-alive 10s
  timeout queue 10s
  timeout check 2s
  # a request that failed on a dead instance is sent again, to another one (redispatch on every retry)
  retries 2
  option redispatch 1
  retry-on conn-failure empty-response response-timeout
  # the balancer's own errors read as the instances' do: the API's JSON error, a request id, and when to come back
  # (503: no instance could take it; 502: one answered nothing usable)
  unique-id-format lb-%{+X}o%Ts%rt%pid
  http-error status 503 ${apiOutage}
  http-error status 502 ${apiOutage}

frontend portal
  bind ${HOST}:${ports.balancer}
  # the client's address as this balancer saw it, in place of any X-Forwarded-For the client sent (appending to it let a
  # client on this host name any address it liked: the instances trust this host's hop)
  http-request set-header X-Forwarded-For %[src]
  # the instances' metrics are for the scraper that reaches them directly, never for the public side
  http-request return status 404 ${apiNotFound} if { path /metrics } || { path_beg /metrics/ }
  # no instance ready (all of them answer /readyz 503 while the database fails over): the API's answer for a call
  http-request return status 503 ${apiOutage} if { path_beg /api/ } { nbsrv(instances) eq 0 }
  # the portal's pages and files need no database: they go to every live instance (/healthz), so that a person opening
  # the portal while the database fails over or is away gets it (its calls get the 503 above and try again); only
  # when no instance is alive at all, a page that tries again by itself
  http-request return status 503 ${pageOutage} if !{ path_beg /api/ } { nbsrv(pages) eq 0 }
  use_backend pages if !{ path_beg /api/ }
  default_backend instances

backend instances
  balance leastconn
  option httpchk GET /readyz
  http-check expect status 200
  default-server inter 1s fall 2 rise 2
  # once a request reached an instance, only those safe to repeat are retried (GET, HEAD, OPTIONS): a POST that an
  # instance may have carried out is not sent twice (a client with an Idempotency-Key may retry it itself)
  http-request disable-l7-retry unless METH_GET || METH_OPTIONS
  # an answer is due within 60 s (then a GET is retried elsewhere), except on the live event stream, which stays
  # open (the server writes a comment every 15 s)
  http-request set-timeout server 60s unless { path_beg /api/v1/events }
${servers.join('\n')}

# the same instances for the portal's pages and files, checked for life only (/healthz), not for the database
backend pages
  balance leastconn
  option httpchk GET /healthz
  http-check expect status 200
  default-server inter 1s fall 2 rise 2
${servers.join('\n')}

# the databases: the leader for writes (PgBouncer, the instances' LISTEN connections), a replica for reads. Patroni's
# REST API says which node is which (/primary answers 200 only on the node holding the leader lock); a node marked
# down has its connections closed at once, so that no client stays on a former leader. 'balance first': every
# connection goes to one server, even in the moment when two might answer.
listen postgres-primary
  bind ${HOST}:${ports.dbPrimary}
  mode tcp
  option tcplog
  balance first
  option httpchk GET /primary
  http-check expect status 200
  default-server inter 1s fall 2 rise 1 on-marked-down shutdown-sessions
${dbServers}

listen postgres-replicas
  bind ${HOST}:${ports.dbReplica}
  mode tcp
  option tcplog
  balance first
  option httpchk GET /replica
  http-check expect status 200
  default-server inter 1s fall 2 rise 2 on-marked-down shutdown-sessions
${dbServers}

# HAProxy's own metrics for Prometheus (its built-in exporter), on the loopback only
frontend prometheus
  bind ${HOST}:${ports.haproxyMetrics}
  no log
  http-request use-service prometheus-exporter if { path /metrics }
  http-request return status 404 content-type text/plain string 'GET /metrics'

listen stats
  bind ${HOST}:${ports.stats}
  stats enable
  stats uri /
  stats refresh 5s
  stats auth ${ROLES.stats}:${secrets().stats}
`;
  fs.writeFileSync(FILES.haproxyCfg, cfg);
}

export async function ensureHaproxy(state) {
  if (alive(state.pids.haproxy, MARK.haproxy)) return false;
  const part = 'HAProxy';
  for (const port of [state.ports.balancer, state.ports.stats, state.ports.dbPrimary, state.ports.dbReplica, state.ports.haproxyMetrics]) {
    if (!(await portFree(port))) throw new ClusterError(part, `port ${port} is in use by ${portOwner(port)}`);
  }
  writeHaproxyConfig(state);
  const check = spawnSync(which('haproxy'), ['-c', '-q', '-f', FILES.haproxyCfg], { encoding: 'utf8' });
  if (check.status !== 0) throw new ClusterError(part, `the configuration is refused:\n${`${check.stdout}${check.stderr}`.trim()}`);
  fs.rmSync(FILES.haproxySock, { force: true });
  const child = spawnDetached(which('haproxy'), ['-f', FILES.haproxyCfg], { log: logFile('haproxy') });
  state.pids.haproxy = child.pid;
  await waitFor(part, 'listening', () => canConnect(state.ports.balancer), {
    log: logFile('haproxy'),
    gone: () => !alive(child.pid, MARK.haproxy),
    ms: 15_000,
  });
  // PgBouncer and the instances come next: the leader must be reachable through HAProxy first
  await waitFor(
    part,
    'a database node UP in postgres-primary',
    async () => Object.values((await haproxyStats())['postgres-primary'] ?? {}).some((s) => s.status.startsWith('UP')),
    {
      log: logFile('haproxy'),
      ms: 30_000,
    },
  );
  return true;
}

/** A command on HAProxy's runtime socket. */
export function haproxyCommand(command) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(FILES.haproxySock);
    let out = '';
    socket.setTimeout(2000, () => socket.destroy(new Error('HAProxy did not answer')));
    socket.on('connect', () => socket.end(`${command}\n`));
    socket.on('data', (d) => (out += d));
    socket.on('end', () => resolve(out));
    socket.on('error', reject);
  });
}

/** What HAProxy thinks of each instance: its check status (UP, DOWN, ...), and the retries and redispatches it made. */
export async function balancerView() {
  return (await haproxyStats()).instances ?? {};
}

/** HAProxy's view of every server, by backend (instances, postgres-primary, postgres-replicas). */
export async function haproxyStats() {
  try {
    const csv = (await haproxyCommand('show stat')).trim().split('\n');
    const header = csv[0].replace(/^# /, '').split(',');
    const col = (name) => header.indexOf(name);
    const out = {};
    for (const line of csv.slice(1)) {
      const f = line.split(',');
      const backend = f[col('pxname')];
      const server = f[col('svname')];
      if (server === 'FRONTEND' || server === 'BACKEND' || backend === 'stats') continue;
      out[backend] ??= {};
      out[backend][server] = {
        status: f[col('status')],
        retries: Number(f[col('wretr')]),
        redispatches: Number(f[col('wredis')]),
        requests: Number(f[col('stot')]),
      };
    }
    return out;
  } catch {
    return {};
  }
}

export async function waitBalancer(state, names, wanted = 'UP', ms = 30_000) {
  if (!alive(state.pids.haproxy, MARK.haproxy)) return;
  await waitFor(
    'HAProxy',
    `${names.join(', ')} ${wanted}`,
    async () => {
      const view = await balancerView();
      return names.every((n) => view[n]?.status?.startsWith(wanted));
    },
    { ms, log: logFile('haproxy') },
  );
}
