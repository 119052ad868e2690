// Where `npm run cluster` keeps its state, the block of ports it takes, and what names each part. Used by scripts/cluster.mjs and
// scripts/cluster-db.mjs.
import path from 'node:path';
import { root } from './cluster-process.mjs';

/** Where the cluster keeps its state: data directories, configuration, logs, pids. */
export const STATE_DIR = path.resolve(process.env.CLUSTER_DIR || path.join(root, '.cluster'));
export const INSTANCES = 3;
/** the PostgreSQL nodes, each run by its Patroni */
export const NODES = ['db1', 'db2', 'db3'];
/** the etcd members that hold Patroni's leader lock (three, so that the lock has a quorum) */
export const MEMBERS = ['etcd1', 'etcd2', 'etcd3'];

const file = (...parts) => path.join(STATE_DIR, ...parts);
export const FILES = {
  state: file('state.json'),
  keys: file('keys.json'),
  /** the passwords of the database's roles, PgBouncer's console and HAProxy's statistics page (scripts/cluster-roles.mjs) */
  roles: file('roles.json'),
  lock: file('lock'),
  logs: file('logs'),
  data: file('data'),
  run: file('run'),
  pooler: file('pgbouncer'),
  poolerIni: file('pgbouncer', 'pgbouncer.ini'),
  poolerUsers: file('pgbouncer', 'userlist.txt'),
  poolerPid: file('pgbouncer', 'pgbouncer.pid'),
  haproxyCfg: file('haproxy.cfg'),
  haproxySock: file('haproxy.sock'),
  proxyConfig: file('proxy.json'),
  proxyControl: file('proxy-control.json'),
  releases: file('releases'),
  etcd: file('etcd'),
  patroni: file('patroni'),
  backrest: file('pgbackrest'),
  backrestConf: file('pgbackrest', 'pgbackrest.conf'),
  backups: file('backups'),
  drill: file('drill'),
  former: file('former'),
  prometheus: file('prometheus'),
  prometheusConfig: file('prometheus', 'prometheus.yml'),
  /** the alerting rules as Prometheus loads them (deploy/alerts/portal.rules.yml; CLUSTER_ALERT_FOR shortens each for:) */
  prometheusRules: file('prometheus', 'portal.rules.yml'),
  /** METRICS_TOKEN, which Prometheus sends to the instances (mode 600) */
  prometheusToken: file('prometheus', 'metrics-token'),
  prometheusData: file('prometheus', 'data'),
  /** node_exporter's textfile directory: pgbouncer.prom and pgbackrest.prom (deploy/textfile-metrics.sh writes them) */
  textfile: file('prometheus', 'textfile'),
  /** deploy/textfile-metrics.sh, copied where the postgres user that runs it can read it */
  textfileWriter: file('prometheus', 'textfile-metrics.sh'),
};
export const logFile = (name) => path.join(FILES.logs, `${name}.log`);
/** a node's PostgreSQL data directory */
export const nodeDir = (node) => file(node);

/**
 * The ports, a fixed block from CLUSTER_PORT (default 8090). The front: the balancer, the instances, HAProxy's
 * statistics page, PgBouncer, the mail sink, and HAProxy's two database addresses (the leader; a replica). Then the
 * etcd members (client, peer), and a block of ten per database node: PostgreSQL, Patroni's REST API, and the TCP
 * proxy's routes to the node (clients, replication, REST API) and from its Patroni to each etcd member, so that a
 * test can cut a node off its clients, or off everything (a partition), and its PostgreSQL exporter. Prometheus and
 * HAProxy's exporter and the host's node_exporter come after the etcd members.
 */
export function portsFor(base) {
  const node = (i) => {
    const b = base + 20 + 10 * i;
    return { port: b, api: b + 1, service: b + 2, replication: b + 3, apiRoute: b + 4, etcdRoutes: MEMBERS.map((_, k) => b + 5 + k), exporter: b + 8 };
  };
  return {
    balancer: base,
    instances: Array.from({ length: INSTANCES }, (_, i) => base + 1 + i),
    stats: base + 4,
    pooler: base + 5,
    smtp: base + 6,
    mailWeb: base + 7,
    dbPrimary: base + 8,
    dbReplica: base + 9,
    etcd: Object.fromEntries(MEMBERS.map((m, k) => [m, { client: base + 10 + 2 * k, peer: base + 11 + 2 * k }])),
    prometheus: base + 16,
    haproxyMetrics: base + 17,
    nodeExporter: base + 18,
    nodes: Object.fromEntries(NODES.map((n, i) => [n, node(i)])),
    drill: base + 50,
  };
}

/** What each part's command line names: how a pid is known to be still that part (alive in cluster-process.mjs). */
export const MARK = {
  instance: (n) => `--cluster=${STATE_DIR}#instance-${n}`,
  proxy: FILES.proxyConfig,
  mail: `scripts/cluster-mail.mjs`,
  haproxy: FILES.haproxyCfg,
  pooler: FILES.poolerIni,
  prometheus: FILES.prometheusConfig,
  /** a PostgreSQL exporter: its web configuration file, one per node */
  exporter: (node) => path.join(FILES.prometheus, `exporter-${node}.web.yml`),
  nodeExporter: `--collector.textfile.directory=${FILES.textfile}`,
  textfileWriter: FILES.textfileWriter,
};
