import pg from 'pg';

/** One host of a connection string, and the string that reaches only it. */
export type HostTarget = { host: string; port: number; url: string };

type ConnectionTargets = {
  targets: HostTarget[];
  /** libpq's target_session_attrs: 'read-write' picks the host that takes writes (the primary); 'any' the first that answers */
  sessionAttrs: 'any' | 'read-write';
};

const URL_PARTS = /^(postgres(?:ql)?:\/\/)((?:[^@/?#]*@)?)([^/?#]*)(.*)$/;

/**
 * Splits a connection string into its hosts, libpq style: `postgres://user@h1:5432,h2:5433/db?target_session_attrs=read-write`
 * (node-postgres reads one host only). `target_session_attrs` is taken out of each host's string, since the server
 * would not know it as a startup option.
 */
export function parseConnectionTargets(url: string): ConnectionTargets {
  const match = URL_PARTS.exec(url);
  if (!match) throw new Error('a connection string starts with postgres://');
  const [, scheme, auth, hostList, tail] = match as unknown as [string, string, string, string, string];
  const [pathPart = '', query = ''] = tail.split(/\?(.*)/s, 2);
  const params = new URLSearchParams(query);
  const attrs = params.get('target_session_attrs') ?? 'any';
  if (attrs !== 'any' && attrs !== 'read-write' && attrs !== 'primary') throw new Error(`target_session_attrs=${attrs} is not supported (any, read-write)`);
  params.delete('target_session_attrs');
  const rest = `${pathPart}${params.size > 0 ? `?${params.toString()}` : ''}`;
  const hosts = hostList === '' ? ['localhost'] : hostList.split(',');
  const targets = hosts.map((entry) => {
    // [v6]:port, host:port or host
    const v6 = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
    const [host, port] = v6 ? [v6[1]!, v6[2]] : (entry.split(':') as [string, string | undefined]);
    const portNumber = Number(port ?? 5432);
    if (!host || !Number.isInteger(portNumber) || portNumber < 1 || portNumber > 65535) throw new Error(`${entry} is not a host[:port]`);
    return { host, port: portNumber, url: `${scheme}${auth}${entry}${rest}` };
  });
  return { targets, sessionAttrs: attrs === 'any' ? 'any' : 'read-write' };
}

/** Milliseconds a probe of one host may take before the next is tried. */
const PROBE_TIMEOUT_MS = 2000;
/** How long a chosen host is kept before it is asked again (a failed connection forgets it at once). */
const CHOICE_TTL_MS = 10_000;

/**
 * Picks, among a connection string's hosts, the one to connect to: with one host (or target_session_attrs=any)
 * the first one; with read-write, the first host that answers and is not in recovery, asked in the string's
 * order. The choice is kept for a few seconds, and forgotten at once when a connection to it fails, so that the
 * next connection follows a failover.
 */
export function hostChooser(url: string) {
  const { targets, sessionAttrs } = parseConnectionTargets(url);
  let chosen: { target: HostTarget; at: number } | undefined;
  let asking: Promise<HostTarget> | undefined;

  const writable = async (target: HostTarget): Promise<boolean> => {
    const client = new pg.Client({ connectionString: target.url, connectionTimeoutMillis: PROBE_TIMEOUT_MS });
    client.on('error', () => undefined);
    try {
      await client.connect();
      const { rows } = await client.query<{ recovery: boolean }>('select pg_is_in_recovery() as recovery');
      return rows[0]?.recovery === false;
    } finally {
      await client.end().catch(() => undefined);
    }
  };

  const ask = async (): Promise<HostTarget> => {
    const errors: unknown[] = [];
    for (const target of targets) {
      try {
        if (await writable(target)) return target;
        errors.push(Object.assign(new Error(`${target.host}:${target.port} is read-only (in recovery)`), { code: '25006' }));
      } catch (err) {
        errors.push(err);
      }
    }
    throw new AggregateError(errors, 'no host of the connection string takes writes');
  };

  // more than one host, or a session attribute to check: the choice needs asking
  const needed = targets.length > 1 || sessionAttrs === 'read-write';
  return {
    needed,
    /** a connection string for pg's config (its host is replaced by the chosen one when `needed`) */
    connectionString: targets[0]!.url,
    async current(): Promise<HostTarget> {
      if (!needed) return targets[0]!;
      if (chosen && Date.now() - chosen.at < CHOICE_TTL_MS) return chosen.target;
      asking ??= ask().then(
        (target) => {
          chosen = { target, at: Date.now() };
          asking = undefined;
          return target;
        },
        (err: unknown) => {
          asking = undefined;
          throw err;
        },
      );
      return asking;
    },
    /** a connection to the chosen host failed or found it read-only: ask again next time */
    forget() {
      chosen = undefined;
    },
  };
}

type HostChooser = ReturnType<typeof hostChooser>;

type ConnectCallback = (err?: Error) => void;

/**
 * A pg Client class that connects to the host `chooser` picks at the moment it connects (pg.Pool's `Client`
 * option), so that a pool follows the primary after a failover. Its errors make the chooser ask again.
 */
function chooserClient(chooser: HostChooser): typeof pg.Client {
  class ChosenHostClient extends pg.Client {
    constructor(config?: string | pg.ClientConfig) {
      super(config);
      this.on('error', () => chooser.forget());
    }
  }
  const proto = ChosenHostClient.prototype as unknown as { _connect(cb: ConnectCallback): void; host: string; port: number };
  // pg's own connect, taken off its prototype: called below with .call(this) on the connecting client
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const parentConnect = (pg.Client.prototype as unknown as { _connect(cb: ConnectCallback): void })._connect;
  proto._connect = function (this: typeof proto, callback: ConnectCallback) {
    chooser.current().then(
      (target) => {
        this.host = target.host;
        this.port = target.port;
        parentConnect.call(this, (err?: Error) => {
          if (err) chooser.forget();
          callback(err);
        });
      },
      (err: Error) => callback(err),
    );
  };
  return ChosenHostClient;
}

/**
 * How pg connects for a connection string that may list several hosts: the first host's string, and a Client class
 * that connects to the chosen host (pg's own Client when there is nothing to choose). For a pool and a listener alike.
 */
export function connectionFor(url: string): { connectionString: string; Client: typeof pg.Client } {
  const chooser = hostChooser(url);
  return { connectionString: chooser.connectionString, Client: chooser.needed ? chooserClient(chooser) : pg.Client };
}
