// Types of scripts/cluster.mjs, for tests written in TypeScript that drive the cluster.

export declare const STATE_DIR: string;

export declare class ClusterError extends Error {
  /** which part failed: 'HAProxy', 'instance-2', 'primary PostgreSQL (db1)', 'ports', ... */
  part: string;
  /** the log that tells more */
  log?: string;
  constructor(part: string, message: string, log?: string);
}

export type NodeName = 'db1' | 'db2';

export type Ports = {
  balancer: number;
  instances: number[];
  stats: number;
  /** port: the PostgreSQL server's own; service: the TCP proxy in front of it, which every client uses */
  nodes: Record<NodeName, { port: number; service: number }>;
  pooler: number;
  smtp: number;
  mailWeb: number;
};

export type ClusterState = {
  version: 1;
  base: number;
  ports: Ports;
  primary: NodeName;
  replica: NodeName;
  pids: Record<string, number | undefined>;
  env: Record<string, string>;
  failovers: { at: string; from: NodeName; to: NodeName }[];
  startedAt?: string;
};

export type BalancerServer = { status: string; retries: number; redispatches: number; requests: number };

export type DatabaseStatus = {
  node: NodeName;
  host: string;
  port: number;
  servicePort: number;
  pid: number | null;
  alive: boolean;
  /** as the server answers pg_is_in_recovery() */
  role: 'primary' | 'replica' | 'down' | 'not answering';
  cutUntil: string | null;
  dataDir: string;
};

export type ClusterStatus = {
  running: boolean;
  stateDir: string;
  balancer: string;
  instances: { name: string; pid: number | null; url: string; alive: boolean; ready: boolean; balancer: BalancerServer | null; log: string }[];
  primary: DatabaseStatus;
  replica: DatabaseStatus;
  pooler: { host: string; port: number; pid: number | null; alive: boolean; target: { node: NodeName; port: number } };
  proxy: { pid: number | null; alive: boolean; routes: { node: NodeName; listen: number; target: number }[] };
  haproxy: { pid: number | null; alive: boolean; stats: string };
  mail: { smtp: string; web: string; pid: number | null; alive: boolean };
  env: { DATABASE_URL: string; DATABASE_DIRECT_URL: string; DATABASE_READ_URL: string };
  failovers: ClusterState['failovers'];
};

export type CutMode = 'refuse' | 'blackhole';

export declare function portsFor(base: number): Ports;
export declare function readState(): ClusterState | undefined;
export declare function start(options?: { base?: number }): Promise<ClusterState>;
export declare function stop(options?: { purge?: boolean }): Promise<void>;
export declare function status(): Promise<ClusterStatus | { running: false; stateDir: string }>;
export declare function balancerView(): Promise<Record<string, BalancerServer>>;
export declare function killInstance(n: number | string): Promise<boolean>;
export declare function startInstance(n: number | string): Promise<boolean>;
export declare function restartPooler(): Promise<void>;
export declare function stopReplica(): Promise<void>;
export declare function startReplica(): Promise<void>;
export declare function failover(): Promise<{ from: NodeName; to: NodeName }>;
export declare function cut(role: 'primary' | 'replica', seconds: number, options?: { mode?: CutMode }): Promise<{ node: NodeName; until: number }>;
export declare function cutPrimary(seconds: number, options?: { mode?: CutMode }): Promise<{ node: NodeName; until: number }>;
export declare function cutReplica(seconds: number, options?: { mode?: CutMode }): Promise<{ node: NodeName; until: number }>;
