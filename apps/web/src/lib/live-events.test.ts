import { describe, expect, it } from 'vitest';
import { parseEvents } from './live-events.ts';

describe('parseEvents', () => {
  it('reads complete events, keeps an unfinished one for the next chunk, and skips comments', () => {
    const seen: [string, string][] = [];
    const rest = parseEvents('retry: 2000\n\n: ping\n\nevent: change\ndata: {"id":"a"}\n\nevent: change\ndata: {"id"', (type, data) => seen.push([type, data]));
    expect(seen).toEqual([['change', '{"id":"a"}']]);
    expect(rest).toBe('event: change\ndata: {"id"');
    parseEvents(`${rest}:"b"}\r\n\r\nevent: resync\ndata: {}\n\n`, (type, data) => seen.push([type, data]));
    expect(seen).toEqual([
      ['change', '{"id":"a"}'],
      ['change', '{"id":"b"}'],
      ['resync', '{}'],
    ]);
  });
});
