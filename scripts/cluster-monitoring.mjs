// Prometheus and the exporters it scrapes: one PostgreSQL exporter per database node (Debian's
// prometheus-postgres-exporter, as the monitoring role), Patroni's /metrics on each node, HAProxy's built-in exporter
// (cluster-haproxy.mjs), every instance's /metrics (with METRICS_TOKEN), and the host's node_exporter (its disks, and
// the text files deploy/textfile-metrics.sh writes from PgBouncer's pools and pgBackRest's backups); the alerting rules
// of deploy/alerts/portal.rules.yml. Used by scripts/cluster.mjs.
import fs from 'node:fs';
import path from 'node:path';
import { FILES, MARK, NODES, logFile } from './cluster-paths.mjs';
import { ROLES, roleUrl, secrets } from './cluster-roles.mjs';
import { ClusterError, HOST, alive, mkdirFor, portFree, portOwner, root, spawnDetached, terminate, waitFor, which } from './cluster-process.mjs';
import { keys } from './cluster-state.mjs';

const RULES = path.join(root, 'deploy', 'alerts', 'portal.rules.yml');

export const prometheusAlive = (state) => alive(state.pids.prometheus, MARK.prometheus);
export const exporterAlive = (state, node) => alive(state.pids[`exporter-${node}`], MARK.exporter(node));
export const prometheusUrl = (state) => `http://${HOST}:${state.ports.prometheus}`;
export const nodeExporterAlive = (state) => alive(state.pids.nodeExporter, MARK.nodeExporter);
export const textfileWriterAlive = (state) => alive(state.pids.textfileWriter, MARK.textfileWriter);
/** how often the text files are written (a production host: a systemd timer every 15 s) */
const TEXTFILE_EVERY_SECONDS = 5;

/**
 * The rules Prometheus loads: deploy/alerts/portal.rules.yml as it is, or with every `for:` set to CLUSTER_ALERT_FOR
 * (the cluster test: 5s, so that an alert fires within a fault it makes). The value is kept in state.json, so that a
 * later start keeps it; CLUSTER_ALERT_FOR= (empty) goes back to the rules' own durations.
 */
function writeRules(state) {
  const wanted = process.env.CLUSTER_ALERT_FOR ?? state.alertFor ?? '';
  if (wanted && !/^\d+(ms|s|m)$/.test(wanted)) throw new ClusterError('Prometheus', `CLUSTER_ALERT_FOR is a duration such as 10s (not ${wanted})`);
  state.alertFor = wanted || undefined;
  const text = fs.readFileSync(RULES, 'utf8');
  const rules = wanted
    ? `# deploy/alerts/portal.rules.yml with every for: set to ${wanted} (CLUSTER_ALERT_FOR)\n${text.replace(/^(\s+for:\s*)\S+/gm, `$1${wanted}`)}`
    : text;
  fs.writeFileSync(FILES.prometheusRules, rules);
}

/** Prometheus's configuration: each target named by its part (instance-1, db1, haproxy), every 2 s (HAProxy 1 s, the instances 5 s). */
function writePrometheusConfig(state) {
  const { ports } = state;
  const targets = (list) => list.map(([instance, port]) => ({ targets: [`${HOST}:${port}`], labels: { instance } }));
  const job = (name, list, extra = {}) => ({ job_name: name, ...extra, static_configs: targets(list) });
  const config = {
    global: { scrape_interval: '2s', scrape_timeout: '2s', evaluation_interval: '1s' },
    rule_files: [FILES.prometheusRules],
    scrape_configs: [
      // the instances' /metrics asks for METRICS_TOKEN; each scrape reads the job queue, so less often
      job(
        'portal',
        ports.instances.map((port, i) => [`instance-${i + 1}`, port]),
        { scrape_interval: '5s', scrape_timeout: '4s', authorization: { type: 'Bearer', credentials_file: FILES.prometheusToken } },
      ),
      job(
        'postgres',
        NODES.map((n) => [n, ports.nodes[n].exporter]),
      ),
      job(
        'patroni',
        NODES.map((n) => [n, ports.nodes[n].api]),
      ),
      // HAProxy's view of the instances, every second: an instance out of rotation is seen at once
      job('haproxy', [['haproxy', ports.haproxyMetrics]], { scrape_interval: '1s', scrape_timeout: '1s' }),
      // the host: its file systems, and PgBouncer's pools and pgBackRest's backups from the text files
      job('node', [['host', ports.nodeExporter]], { scrape_interval: '5s', scrape_timeout: '4s' }),
    ],
  };
  // JSON is YAML
  fs.writeFileSync(FILES.prometheusConfig, `${JSON.stringify(config, null, 2)}\n`);
  fs.writeFileSync(FILES.prometheusToken, keys().METRICS_TOKEN, { mode: 0o600 });
}

/**
 * One exporter per database node, on the node's own port (as it runs beside its node on a host of its own: a cut or a
 * partition of the node does not reach it), as the monitoring role (pg_monitor). Started once the roles exist.
 */
export async function ensureExporters(state) {
  const program = which('prometheus-postgres-exporter');
  const started = [];
  for (const node of NODES) {
    if (exporterAlive(state, node)) continue;
    const part = `PostgreSQL exporter (${node})`;
    const port = state.ports.nodes[node].exporter;
    if (!(await portFree(port))) throw new ClusterError(part, `port ${port} is in use by ${portOwner(port)}`);
    fs.mkdirSync(FILES.prometheus, { recursive: true });
    // its web configuration: plain HTTP on the loopback (it also names the state directory on its command line)
    fs.writeFileSync(MARK.exporter(node), '# plain HTTP on the loopback: no TLS, no authentication\n');
    const dsn = `postgresql://${ROLES.monitor}:${encodeURIComponent(secrets().monitor)}@${HOST}:${state.ports.nodes[node].port}/postgres?sslmode=disable`;
    const child = spawnDetached(program, [`--web.listen-address=${HOST}:${port}`, `--web.config.file=${MARK.exporter(node)}`, '--log.level=warn'], {
      log: logFile(`exporter-${node}`),
      env: { PATH: process.env.PATH, DATA_SOURCE_NAME: dsn },
    });
    state.pids[`exporter-${node}`] = child.pid;
    started.push([node, child.pid, port]);
  }
  for (const [node, pid, port] of started) {
    await waitFor(
      `PostgreSQL exporter (${node})`,
      'GET /metrics answering',
      async () => (await fetch(`http://${HOST}:${port}/metrics`, { signal: AbortSignal.timeout(2000) }).catch(() => undefined))?.ok === true,
      { log: logFile(`exporter-${node}`), gone: () => !alive(pid, MARK.exporter(node)), ms: 15_000 },
    );
  }
  return started.length > 0;
}

/**
 * The host's node_exporter (Debian's prometheus-node-exporter, its default collectors) with the textfile collector on
 * FILES.textfile, and deploy/textfile-metrics.sh writing PgBouncer's pools (as the pooler's stats user) and pgBackRest's
 * backups there every few seconds, as the postgres user (the repository is its own). Started once the pooler and the
 * first backup exist.
 */
export async function ensureNodeExporter(state) {
  const started = [];
  mkdirFor(FILES.textfile, { postgres: true });
  if (!textfileWriterAlive(state)) {
    fs.copyFileSync(path.join(root, 'deploy', 'textfile-metrics.sh'), FILES.textfileWriter);
    fs.chmodSync(FILES.textfileWriter, 0o755);
    const stats = roleUrl('poolerAdmin', state.ports.pooler, 'pgbouncer');
    const child = spawnDetached('sh', [FILES.textfileWriter, '--dir', FILES.textfile, '--every', String(TEXTFILE_EVERY_SECONDS)], {
      log: logFile('textfile-metrics'),
      env: { PATH: process.env.PATH, PGBOUNCER_URL: stats, PGBACKREST_CONFIG: FILES.backrestConf },
      cwd: '/',
      postgres: true,
    });
    state.pids.textfileWriter = child.pid;
    started.push('textfile writer');
    const written = (name) => fs.existsSync(path.join(FILES.textfile, name));
    await waitFor(
      'text files of PgBouncer and pgBackRest',
      'pgbouncer.prom and pgbackrest.prom written',
      () => written('pgbouncer.prom') && written('pgbackrest.prom'),
      {
        log: logFile('textfile-metrics'),
        gone: () => !textfileWriterAlive(state),
        ms: 30_000,
      },
    );
  }
  if (!nodeExporterAlive(state)) {
    const part = 'node exporter';
    const port = state.ports.nodeExporter;
    if (!(await portFree(port))) throw new ClusterError(part, `port ${port} is in use by ${portOwner(port)}`);
    const child = spawnDetached(which('prometheus-node-exporter'), [`--web.listen-address=${HOST}:${port}`, MARK.nodeExporter, '--log.level=warn'], {
      log: logFile('node-exporter'),
      env: { PATH: process.env.PATH },
    });
    state.pids.nodeExporter = child.pid;
    started.push(part);
    await waitFor(
      part,
      'GET /metrics answering',
      async () => (await fetch(`http://${HOST}:${port}/metrics`, { signal: AbortSignal.timeout(2000) }).catch(() => undefined))?.ok === true,
      { log: logFile('node-exporter'), gone: () => !nodeExporterAlive(state), ms: 15_000 },
    );
  }
  return started.length > 0;
}

/** Prometheus, with its data under the state directory; ready when GET /-/ready answers 200. */
export async function ensurePrometheus(state) {
  if (prometheusAlive(state)) return false;
  const part = 'Prometheus';
  const port = state.ports.prometheus;
  if (!(await portFree(port))) throw new ClusterError(part, `port ${port} is in use by ${portOwner(port)}`);
  fs.mkdirSync(FILES.prometheusData, { recursive: true });
  writeRules(state);
  writePrometheusConfig(state);
  const child = spawnDetached(
    which('prometheus'),
    [
      `--config.file=${FILES.prometheusConfig}`,
      `--storage.tsdb.path=${FILES.prometheusData}`,
      '--storage.tsdb.retention.time=2d',
      `--web.listen-address=${HOST}:${port}`,
      '--log.level=warn',
    ],
    { log: logFile('prometheus') },
  );
  state.pids.prometheus = child.pid;
  await waitFor(
    part,
    'GET /-/ready = 200',
    async () => (await fetch(`${prometheusUrl(state)}/-/ready`, { signal: AbortSignal.timeout(2000) }).catch(() => undefined))?.status === 200,
    { log: logFile('prometheus'), gone: () => !prometheusAlive(state), ms: 30_000 },
  );
  return true;
}

/** Stops Prometheus, the exporters and the textfile writer; the names of those that ran. */
export async function stopMonitoring(state) {
  const stopped = [];
  if (await terminate(state.pids.prometheus, MARK.prometheus)) stopped.push('Prometheus');
  const exporters = await Promise.all(NODES.map(async (n) => ((await terminate(state.pids[`exporter-${n}`], MARK.exporter(n))) ? n : undefined)));
  if (exporters.some(Boolean)) stopped.push(`PostgreSQL exporters (${exporters.filter(Boolean).join(', ')})`);
  if (await terminate(state.pids.nodeExporter, MARK.nodeExporter)) stopped.push('node exporter');
  if (await terminate(state.pids.textfileWriter, MARK.textfileWriter)) stopped.push('textfile writer');
  return stopped;
}
