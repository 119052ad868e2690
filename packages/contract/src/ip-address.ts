/**
 * IP addresses and ranges for a partner's allowed-address list, parsed without any platform library so that the
 * portal's form and the server apply the same rule and store the same text: IPv4 (dotted quad, no leading zeros),
 * IPv6 (RFC 4291 text forms, written back in the RFC 5952 canonical form) and either in CIDR notation.
 */

export type ParsedIp = {
  /** the canonical text that is stored and shown: `203.0.113.7`, `203.0.113.0/24`, `2001:db8::1`, `2001:db8::/32` */
  canonical: string;
  family: 'ipv4' | 'ipv6';
  /** the address part, canonical (the network address for a range) */
  address: string;
  /** the prefix length of a range; undefined for one address */
  prefix?: number;
};

export const IP_ADDRESS_MESSAGE = 'Enter an IPv4 or IPv6 address, or a range in CIDR notation such as 203.0.113.0/24';

/** Why a text is not an acceptable address or range, or the parsed value. */
export type IpParseResult = { ok: true; value: ParsedIp } | { ok: false; message: string };

function ipv4Bytes(text: string): number[] | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  const bytes: number[] = [];
  for (const part of parts) {
    // no leading zeros: 010 means 8 to some parsers and 10 to others
    if (!/^(0|[1-9]\d{0,2})$/.test(part)) return undefined;
    const n = Number(part);
    if (n > 255) return undefined;
    bytes.push(n);
  }
  return bytes;
}

/** 16 bytes of an IPv6 text (with `::` and an embedded IPv4 tail allowed), or undefined. Zone ids are refused. */
function ipv6Bytes(text: string): number[] | undefined {
  if (!/^[0-9a-fA-F:.]+$/.test(text) || text.length > 45) return undefined;
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const groups = (half: string): number[] | undefined => {
    if (half === '') return [];
    const out: number[] = [];
    const pieces = half.split(':');
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i]!;
      if (piece.includes('.')) {
        // an IPv4 tail, only as the last piece
        if (i !== pieces.length - 1) return undefined;
        const v4 = ipv4Bytes(piece);
        if (!v4) return undefined;
        out.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
      } else {
        if (!/^[0-9a-fA-F]{1,4}$/.test(piece)) return undefined;
        out.push(parseInt(piece, 16));
      }
    }
    return out;
  };
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  if (!head || !tail) return undefined;
  // an IPv4 tail is only allowed at the very end of the text
  if (halves.length === 2 && halves[0]!.includes('.')) return undefined;
  let words: number[];
  if (halves.length === 2) {
    const missing = 8 - head.length - tail.length;
    if (missing < 1) return undefined;
    words = [...head, ...Array<number>(missing).fill(0), ...tail];
  } else {
    if (head.length !== 8) return undefined;
    words = head;
  }
  return words.flatMap((w) => [w >> 8, w & 0xff]);
}

const formatIpv4 = (bytes: number[]) => bytes.join('.');

/** RFC 5952: lower case, no leading zeros, the longest run (two or more) of zero groups as `::`, the first if tied. */
function formatIpv6(bytes: number[]): string {
  const words = Array.from({ length: 8 }, (_, i) => (bytes[i * 2]! << 8) | bytes[i * 2 + 1]!);
  let best = { start: -1, length: 0 };
  for (let i = 0; i < 8;) {
    if (words[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && words[j] === 0) j++;
    if (j - i > best.length) best = { start: i, length: j - i };
    i = j;
  }
  const hex = (ws: number[]) => ws.map((w) => w.toString(16)).join(':');
  if (best.length < 2) return hex(words);
  return `${hex(words.slice(0, best.start))}::${hex(words.slice(best.start + best.length))}`;
}

/** Whether every bit after the first `prefix` bits is zero. */
function hostBitsZero(bytes: number[], prefix: number): boolean {
  return bytes.every((b, i) => {
    const keep = Math.max(0, Math.min(8, prefix - i * 8));
    return (b & (0xff >> keep)) === 0;
  });
}

function maskTo(bytes: number[], prefix: number): number[] {
  return bytes.map((b, i) => {
    const keep = Math.max(0, Math.min(8, prefix - i * 8));
    return b & ((0xff << (8 - keep)) & 0xff);
  });
}

/**
 * Parses an address or a CIDR range. A range must name its network (host bits zero): `203.0.113.7/24` is refused
 * with the range it probably means, because a silent correction could open more than the partner meant. /0 is
 * refused (it allows every address: the same as an empty list, but easy to add by mistake).
 */
export function parseIpAddress(input: string): IpParseResult {
  const text = input.trim();
  if (text === '') return { ok: false, message: IP_ADDRESS_MESSAGE };
  const [addressText = '', prefixText, ...rest] = text.split('/');
  if (rest.length > 0) return { ok: false, message: IP_ADDRESS_MESSAGE };
  const v4 = ipv4Bytes(addressText);
  const v6 = v4 ? undefined : ipv6Bytes(addressText);
  const bytes = v4 ?? v6;
  if (!bytes) return { ok: false, message: IP_ADDRESS_MESSAGE };
  const family = v4 ? 'ipv4' : 'ipv6';
  const format = v4 ? formatIpv4 : formatIpv6;
  const maxPrefix = v4 ? 32 : 128;
  if (prefixText === undefined) {
    const address = format(bytes);
    return { ok: true, value: { canonical: address, family, address } };
  }
  if (!/^(0|[1-9]\d{0,2})$/.test(prefixText) || Number(prefixText) > maxPrefix) {
    return { ok: false, message: `The prefix length of an ${family === 'ipv4' ? 'IPv4' : 'IPv6'} range is 1 to ${maxPrefix}` };
  }
  const prefix = Number(prefixText);
  if (prefix === 0) return { ok: false, message: 'A /0 range allows every address: leave the list empty instead' };
  if (!hostBitsZero(bytes, prefix)) {
    return { ok: false, message: `${text} is not the start of its range: did you mean ${format(maskTo(bytes, prefix))}/${prefix}?` };
  }
  const address = format(bytes);
  // a full-length prefix is one address
  if (prefix === maxPrefix) return { ok: true, value: { canonical: address, family, address } };
  return { ok: true, value: { canonical: `${address}/${prefix}`, family, address, prefix } };
}

/** The IPv4 address inside an IPv4-mapped IPv6 address (`::ffff:203.0.113.7`), as a dual-stack socket reports it. */
export function unmapIpv4(address: string): string {
  const m = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  return m ? m[1]! : address;
}
