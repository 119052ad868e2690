import { describe, expect, it } from 'vitest';
import { parseEvents, type StreamEvent } from './live-events.ts';

describe('parseEvents', () => {
  it('reads complete events, keeps an unfinished one for the next chunk, and skips comments', () => {
    const seen: StreamEvent[] = [];
    const rest = parseEvents('retry: 2000\n\n: ping\n\nid: 41\nevent: change\ndata: {"id":"a"}\n\nevent: change\ndata: {"id"', (e) => seen.push(e));
    expect(seen).toEqual([
      { type: 'message', data: '', retry: 2000 },
      { type: 'change', data: '{"id":"a"}', id: '41' },
    ]);
    expect(rest).toBe('event: change\ndata: {"id"');
    parseEvents(`${rest}:"b"}\r\n\r\nevent: resync\ndata: {}\n\nretry: 250\nevent: reconnect\ndata: {}\n\n`, (e) => seen.push(e));
    expect(seen.slice(2)).toEqual([
      { type: 'change', data: '{"id":"b"}' },
      { type: 'resync', data: '{}' },
      { type: 'reconnect', data: '{}', retry: 250 },
    ]);
  });
});
