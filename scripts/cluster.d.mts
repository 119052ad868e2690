// Types of scripts/cluster.mjs, for tests written in TypeScript that drive the cluster.

export declare const STATE_DIR: string;

export declare class ClusterError extends Error {
  /** which part failed: 'HAProxy', 'instance-2', 'Patroni (db1)', 'pgBackRest', 'ports', ... */
  part: string;
  /** the log that tells more */
  log?: string;
  constructor(part: string, message: string, log?: string);
}

export type NodeName = 'db1' | 'db2' | 'db3';
/** a node by name or by what it is now */
export type NodeRef = NodeName | 'primary' | 'replica' | 'sync' | 'async';

export type NodePorts = {
  port: number;
  api: number;
  service: number;
  replication: number;
  apiRoute: number;
  etcdRoutes: number[];
  /** its PostgreSQL exporter (GET /metrics) */
  exporter: number;
};

export type Ports = {
  balancer: number;
  instances: number[];
  stats: number;
  pooler: number;
  smtp: number;
  mailWeb: number;
  /** HAProxy: the leader, a replica */
  dbPrimary: number;
  dbReplica: number;
  etcd: Record<string, { client: number; peer: number }>;
  /** Prometheus (its web page and API) */
  prometheus: number;
  /** HAProxy's built-in Prometheus exporter (GET /metrics) */
  haproxyMetrics: number;
  nodeExporter: number;
  nodes: Record<NodeName, NodePorts>;
  drill: number;
};

export type ClusterState = {
  version: 2;
  base: number;
  ports: Ports;
  pids: Record<string, number | undefined>;
  env: Record<string, string>;
  /** the folder of the release the instances run (or start on next) */
  release?: string;
  /** the folder of this checkout's release as made last (a deploy without another release goes back to it) */
  built?: string;
  startedAt?: string;
  /** CLUSTER_ALERT_FOR: every for: of the rules Prometheus loads, when set */
  alertFor?: string;
};

export type BalancerServer = { status: string; retries: number; redispatches: number; requests: number };

export type NodeStatus = {
  name: NodeName;
  /** as the node's PostgreSQL answers pg_is_in_recovery() */
  role: 'primary' | 'replica' | 'down' | 'not answering';
  /** its postmaster */
  pid: number | null;
  port: number;
  /** bytes of WAL the leader has that this node has not replayed (0 for the leader; null when it does not stream) */
  lagBytes: number | null;
  /** the synchronous replica: every acknowledged commit is on it */
  sync: boolean;
  /** holds Patroni's leader lock and takes writes */
  leader: boolean;
  patroni: { pid: number | null; alive: boolean; state: string | null; timeline: number | null };
  dataDir: string;
  cutUntil: string | null;
  partitionedUntil: string | null;
  balancer: { primary: string | null; replicas: string | null };
};

export type ClusterStatus = {
  running: boolean;
  stateDir: string;
  balancer: string;
  instances: { name: string; pid: number | null; url: string; alive: boolean; ready: boolean; balancer: BalancerServer | null; log: string }[];
  nodes: NodeStatus[];
  leader: NodeName | null;
  etcd: { name: string; pid: number | null; alive: boolean; client: string }[];
  pooler: { host: string; port: number; pid: number | null; alive: boolean; target: string };
  proxy: { pid: number | null; alive: boolean };
  haproxy: { pid: number | null; alive: boolean; stats: string; leader: string; replicas: string };
  mail: { smtp: string; web: string; pid: number | null; alive: boolean };
  /** Prometheus on deploy/alerts/portal.rules.yml (GET /api/v1/alerts), and the exporters it scrapes besides the instances and Patroni */
  prometheus: {
    url: string;
    pid: number | null;
    alive: boolean;
    /** every for: of the rules it loaded (CLUSTER_ALERT_FOR), or null: the rules' own */
    alertFor: string | null;
    exporters: {
      haproxy: string;
      /** the host's node_exporter, with the text files of PgBouncer's pools and pgBackRest's backups */
      node: { url: string; pid: number | null; alive: boolean };
      /** deploy/textfile-metrics.sh, writing them every 5 s */
      textfiles: { dir: string; pid: number | null; alive: boolean };
      postgres: { node: NodeName; url: string; pid: number | null; alive: boolean }[];
    };
  };
  /** the instances' database addresses, as the app's role (rows only) */
  env: { DATABASE_URL: string; DATABASE_DIRECT_URL: string; DATABASE_READ_URL: string };
  /** Patroni's leader changes, oldest first */
  history: { timeline: number; lsn: number; reason: string; at: string | null; leader: string | null }[];
};

export type CutMode = 'refuse' | 'blackhole';

export type DrillResult = {
  target: string;
  seconds: number;
  settlements: number;
  lastSettlementAt: string | null;
  url: string;
  dataDir: string;
  reconciled?: { ok: boolean; output: string };
  inspected?: unknown;
  kept: boolean;
};

export declare function portsFor(base: number): Ports;
export declare function readState(): ClusterState | undefined;
export declare function start(options?: { base?: number }): Promise<ClusterState>;
export declare function stop(options?: { purge?: boolean }): Promise<void>;
export declare function status(): Promise<ClusterStatus | { running: false; stateDir: string; outdated?: boolean }>;
export declare function balancerView(): Promise<Record<string, BalancerServer>>;
export declare function killInstance(n: number | string): Promise<boolean>;
export declare function startInstance(n: number | string): Promise<boolean>;
export declare function restartPooler(): Promise<void>;
/** the operator's access (secrets of roles.json): the superuser (through the leader's address), the app's role, PgBouncer's console, HAProxy's statistics */
export declare function operatorAccess(): {
  superuser: { user: string; password: string };
  /** the instances' role (rows only) */
  app: { user: string; password: string };
  superuserUrl: string;
  poolerAdminUrl: string;
  stats: { url: string; user: string; password: string };
};
/** Installs another release's tarball beside this checkout's, without deploying it; its folder. */
export declare function prepareRelease(tarball: string): Promise<string>;
/**
 * rolling deploy: each instance in turn drained at the balancer, stopped with SIGTERM, started on the release (this
 * checkout's, or `release`: another release's tarball, the previous one to roll back to), given requests again
 */
export declare function deploy(options?: { release?: string }): Promise<{ release: string; seconds: number }>;
/** a key rotation: stages 1 and 2 (new keys accepted, then signing), or with `finish` stage 3 (rekey, new keys alone) */
export declare function rotateKeys(options?: { finish?: boolean; now?: boolean }): Promise<{ stage: 2 | 3; finishAfter: number | null }>;
export declare function killPrimary(): Promise<{ node: NodeName; pid: number; at: number }>;
export declare function killNodeCommand(node: NodeRef): Promise<{ node: NodeName; at: number }>;
export declare function startNode(node: NodeName): Promise<boolean>;
export declare function stopNode(node: NodeRef): Promise<NodeName>;
export declare function stopReplica(node?: NodeRef): Promise<NodeName>;
export declare function startReplica(node?: NodeName): Promise<NodeName[]>;
export declare function switchover(to?: NodeName): Promise<{ from: NodeName; to: NodeName }>;
export declare function holdWal(node: NodeRef, seconds: number): Promise<{ node: NodeName; pid: number; leader: NodeName; release(): void }>;
export declare function holdArchive(): Promise<{ pid: number; leader: NodeName; release(): void; kill(): void }>;
export declare function cut(role: NodeRef, seconds: number, options?: { mode?: CutMode }): Promise<{ node: NodeName; until: number }>;
export declare function cutPrimary(seconds: number, options?: { mode?: CutMode }): Promise<{ node: NodeName; until: number }>;
export declare function cutReplica(seconds: number, options?: { mode?: CutMode }): Promise<{ node: NodeName; until: number }>;
export declare function partition(node: NodeRef, seconds: number): Promise<{ node: NodeName; until: number }>;
export declare function setSynchronous(on: boolean): Promise<void>;
/** waits until a leader leads, every running node streams from it and one is named synchronous; the seconds it took */
export declare function settle(options?: { ms?: number }): Promise<number>;
export declare function backupCommand(options?: { full?: boolean }): Promise<{ node: NodeName; type: string; label: string; seconds: number }>;
export declare function backups(): Promise<{
  backups: { label: string; type: string; start: string; stop: string }[];
  archive: { min: string; max: string }[];
  status: string;
}>;
export declare function drill<T = unknown>(options?: {
  to?: Date | string;
  keep?: boolean;
  inspect?: (url: string) => Promise<T>;
}): Promise<DrillResult & { inspected?: T }>;
export declare function reinitNode(node: NodeName): Promise<boolean>;
/** every account's kept balance against its ledger, on the leader */
export declare function reconcile(): Promise<{ ok: boolean; output: string }>;
