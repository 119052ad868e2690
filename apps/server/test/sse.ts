import type http from 'node:http';

/** One server-sent event as a test reads it: its type (`event:`), `id:` when it has one, and its data. */
export type SseEvent = { type: string; id?: string; data?: string };

/** Hands each complete event of a server-sent event stream to `onEvent` (comments and `retry:`-only blocks too). */
export function readEvents(res: http.IncomingMessage, onEvent: (event: SseEvent) => void) {
  let buffer = '';
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => {
    buffer += chunk;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const lines = buffer.slice(0, end).split('\n');
      buffer = buffer.slice(end + 2);
      const field = (name: string) => lines.find((l) => l.startsWith(`${name}: `))?.slice(name.length + 2);
      onEvent({ type: field('event') ?? 'message', id: field('id'), data: field('data') });
    }
  });
}
