// The cluster's SMTP sink: the server's own development mail catcher (maildev), run as a process of its own so that
// every instance sends to one inbox. It stands in for the operator's mail relay; started by scripts/cluster.mjs as
//
//   node scripts/cluster-mail.mjs <smtp port> <web port> <state dir>
//
// (the state dir is only there so that `npm run cluster -- stop` can tell this process is the cluster's). It runs the
// built catcher (apps/server/dist/mail-catcher.js, made by scripts/server-build.mjs before the cluster starts).
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const { startMailCatcher } = await import(pathToFileURL(path.join(import.meta.dirname, '../apps/server/dist/mail-catcher.js')).href);

const [smtpPort, webPort] = process.argv.slice(2, 4).map(Number);
if (!smtpPort || !webPort) {
  console.error('usage: node scripts/cluster-mail.mjs <smtp port> <web port> <state dir>');
  process.exit(2);
}

const catcher = await startMailCatcher({ smtpPort, webPort });
console.log(`${new Date().toISOString()} mail sink: SMTP ${catcher.smtpUrl}, inbox http://127.0.0.1:${webPort}`);

let stopping = false;
const shutdown = () => {
  if (stopping) return;
  stopping = true;
  void catcher.stop().finally(() => process.exit(0));
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
