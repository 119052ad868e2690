import http from 'node:http';
import net from 'node:net';
import { MailDev } from 'maildev';

export type MailCatcher = { smtpUrl: string; webUrl: string; stop(): Promise<void> };

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });

/**
 * The inbox's front door: maildev answers its root with the inbox only to a request that asks for text/html, and
 * `Not found` to any other (curl, a link checker). Every request is passed through unchanged (live updates
 * included), except that the root is always the inbox page.
 */
function frontDoor(target: number) {
  const server = http.createServer((req, res) => {
    const path = req.method === 'GET' && (req.url === '/' || req.url === '') ? '/index.html' : req.url;
    const upstream = http.request({ host: '127.0.0.1', port: target, method: req.method, path, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  // websocket and other upgrades: the raw bytes both ways
  server.on('upgrade', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    const up = net.connect(target, '127.0.0.1', () => {
      const headers = Object.entries(req.headers).flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => `${k}: ${x}`) : [`${k}: ${v ?? ''}`]));
      up.write(`${req.method ?? 'GET'} ${req.url ?? '/'} HTTP/1.1\r\n${headers.join('\r\n')}\r\n\r\n`);
      up.write(head);
      up.pipe(socket).pipe(up);
    });
    up.on('error', () => socket.destroy());
    socket.on('error', () => up.destroy());
  });
  return server;
}

/**
 * The development mail catcher (maildev): an SMTP server on 127.0.0.1 that keeps every mail, and a web inbox where a
 * person reads them. `npm start` uses it when SMTP_URL is unset outside production, so that invitations and
 * one-time codes travel over SMTP as they will in production, and nobody has to read them from a log.
 */
export async function startMailCatcher(options: { smtpPort: number; webPort: number }): Promise<MailCatcher> {
  const inner = await freePort();
  const maildev = new MailDev({ smtp: options.smtpPort, web: inner, ip: '127.0.0.1', webIp: '127.0.0.1', silent: true });
  await maildev.start();
  const door = frontDoor(inner);
  try {
    await new Promise<void>((resolve, reject) => {
      door.once('error', reject);
      door.listen(options.webPort, '127.0.0.1', () => resolve());
    });
  } catch (err) {
    await maildev.stop();
    throw err;
  }
  return {
    smtpUrl: `smtp://127.0.0.1:${options.smtpPort}`,
    webUrl: `http://localhost:${options.webPort}`,
    stop: async () => {
      door.closeAllConnections();
      await new Promise<void>((resolve) => door.close(() => resolve()));
      await maildev.stop();
    },
  };
}
