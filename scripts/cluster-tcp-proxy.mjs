// The cluster's TCP proxy: every path to a database node (its clients through HAProxy, the other nodes' replication
// and REST calls, its own Patroni's calls to etcd) goes through one of its routes, so that a test can cut a node off
// its clients, or off everything (a partition), and heal it again:
//
//   node scripts/cluster-tcp-proxy.mjs <config.json>
//
// config.json: { "routes": [{ "name": "db1", "group": "db1", "listen": { "host", "port" }, "target": { "host", "port" } }, ...],
//                "control": "<control file>" }
// The control file ({ "cuts": { "<route name>": { "until": <epoch ms>, "mode": "refuse" | "blackhole" } },
// "partitions": { "<group>": { ... } } }) is read at start and on SIGUSR2 (scripts/cluster.mjs writes it and sends the
// signal: `npm run cluster -- cut-primary 10`, `npm run cluster -- partition primary 30`).
//
// refuse:    open connections are reset at once, new ones are accepted and reset (the client sees its connection
//            fail straight away), until the cut is over.
// blackhole: a network partition: open connections stop carrying data in both directions (they stay open, TCP holds
//            what is sent), new connections are accepted but go nowhere; when the cut is over, both directions
//            resume and the waiting connections are put through.
import fs from 'node:fs';
import net from 'node:net';

const configFile = process.argv[2];
if (!configFile) {
  console.error('usage: node scripts/cluster-tcp-proxy.mjs <config.json>');
  process.exit(2);
}
const config = JSON.parse(fs.readFileSync(configFile, 'utf8'));

const log = (message) => console.log(`${new Date().toISOString()} ${message}`);

function createRoute(route) {
  /** open connection pairs: { client, upstream, frozen } */
  const pairs = new Set();
  /** blackhole: client sockets accepted during the cut, put through when it ends */
  const held = new Set();
  /** the cut in force: { until, mode, timer } */
  let cut;

  const freeze = (pair) => {
    pair.frozen = true;
    pair.client.pause();
    pair.upstream.pause();
  };
  const thaw = (pair) => {
    pair.frozen = false;
    pair.client.resume();
    pair.upstream.resume();
  };

  function putThrough(client) {
    const upstream = net.connect({ host: route.target.host, port: route.target.port });
    const pair = { client, upstream, frozen: false };
    pairs.add(pair);
    const forward = (from, to) => {
      from.on('data', (chunk) => {
        if (!to.write(chunk)) from.pause();
      });
      to.on('drain', () => {
        if (!pair.frozen) from.resume();
      });
    };
    forward(client, upstream);
    forward(upstream, client);
    const close = () => {
      if (!pairs.delete(pair)) return;
      client.destroy();
      upstream.destroy();
    };
    for (const socket of [client, upstream]) {
      socket.on('error', close);
      socket.on('close', close);
    }
    client.resume();
  }

  const server = net.createServer({ pauseOnConnect: true }, (client) => {
    client.setNoDelay(true);
    if (cut?.mode === 'refuse') {
      client.resetAndDestroy();
      return;
    }
    if (cut?.mode === 'blackhole') {
      held.add(client);
      client.on('error', () => held.delete(client));
      client.on('close', () => held.delete(client));
      return;
    }
    putThrough(client);
  });
  server.on('error', (err) => {
    log(`${route.name}: cannot listen on ${route.listen.host}:${route.listen.port}: ${err.message}`);
    process.exit(1);
  });
  server.listen(route.listen.port, route.listen.host, () => {
    log(`${route.name}: ${route.listen.host}:${route.listen.port} -> ${route.target.host}:${route.target.port}`);
  });

  function endCut() {
    if (!cut) return;
    clearTimeout(cut.timer);
    const { mode } = cut;
    cut = undefined;
    if (mode === 'blackhole') {
      for (const pair of pairs) thaw(pair);
      const waiting = [...held];
      held.clear();
      for (const client of waiting) putThrough(client);
      log(`${route.name}: cut over; ${pairs.size} connections carry data again (${waiting.length} of them waited)`);
    } else {
      log(`${route.name}: cut over; new connections go through again`);
    }
  }

  function startCut(until, mode) {
    if (cut) endCut();
    const seconds = ((until - Date.now()) / 1000).toFixed(1);
    cut = { until, mode, timer: setTimeout(endCut, until - Date.now()) };
    if (mode === 'blackhole') {
      for (const pair of pairs) freeze(pair);
      log(`${route.name}: blackhole for ${seconds} s: ${pairs.size} connections frozen, new ones held`);
    } else {
      const dropped = pairs.size;
      for (const pair of [...pairs]) {
        pairs.delete(pair);
        pair.client.resetAndDestroy();
        pair.upstream.destroy();
      }
      log(`${route.name}: cut for ${seconds} s: ${dropped} connections reset, new ones refused`);
    }
  }

  return {
    name: route.name,
    group: route.group,
    apply(wanted) {
      if (wanted && wanted.until > Date.now()) {
        const mode = wanted.mode === 'blackhole' ? 'blackhole' : 'refuse';
        if (!cut || cut.until !== wanted.until || cut.mode !== mode) startCut(wanted.until, mode);
      } else if (cut) {
        endCut();
      }
    },
  };
}

const routes = config.routes.map(createRoute);

function applyControl() {
  let control = {};
  try {
    control = JSON.parse(fs.readFileSync(config.control, 'utf8'));
  } catch {
    // no control file yet: nothing is cut
  }
  // a cut names one route (a node's clients); a partition names a node, and takes every route of its group
  const now = Date.now();
  for (const route of routes) {
    const wanted = [control.cuts?.[route.name], control.partitions?.[route.group]].filter((c) => c && c.until > now).sort((a, b) => b.until - a.until)[0];
    route.apply(wanted);
  }
}

applyControl();
process.on('SIGUSR2', applyControl);
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => process.exit(0));
