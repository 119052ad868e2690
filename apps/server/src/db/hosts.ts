const URL_PARTS = /^postgres(?:ql)?:\/\/(?:[^@/?#]*@)?([^/?#]*)([^?#]*)(?:\?([^#]*))?/;

/**
 * Checks a connection string before anything connects with it: postgres://, one host (with its port), no
 * `target_session_attrs`. Several hosts were once allowed, libpq style, with the writable one picked by asking each;
 * after a failover the old primary, started again, answered as writable too, and an instance wrote to it (two ledgers).
 * Which node leads is now the deployment's to say, through one address that follows the leader (HAProxy checking
 * Patroni, docs/deployment.md), never the server's guess.
 */
export function checkConnectionString(url: string): void {
  const match = URL_PARTS.exec(url);
  if (!match) throw new Error('a connection string starts with postgres://');
  const [, hostList = '', , query = ''] = match;
  if (hostList.includes(',')) {
    throw new Error('it lists several hosts: give one address that always leads to the primary (HAProxy in front of Patroni, docs/deployment.md)');
  }
  const v6 = /^\[([^\]]+)\](?::(\d+))?$/.exec(hostList);
  const port = v6 ? v6[2] : hostList.split(':')[1];
  if (port !== undefined && !(Number.isInteger(Number(port)) && Number(port) >= 1 && Number(port) <= 65535))
    throw new Error(`${hostList} is not a host[:port]`);
  if (new URLSearchParams(query).has('target_session_attrs')) {
    throw new Error('target_session_attrs is not followed: give one address that always leads to the primary (docs/deployment.md)');
  }
}
