import dns from 'node:dns';
import net from 'node:net';

/**
 * Server-side request forgery guard for requests the server makes to addresses partners choose (webhooks). In
 * production a target must resolve only to public addresses: loopback, private, link-local (cloud metadata at
 * 169.254.169.254), carrier-grade NAT, multicast, reserved and documentation ranges are refused, IPv4 written inside
 * IPv6 included. The check runs on the very addresses the connection uses (a `lookup` for http.request), so a name
 * that resolves to a public address when checked and a private one when connecting (DNS rebinding) gains nothing.
 */
const BLOCKED = new net.BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8], // "this" network
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  BLOCKED.addSubnet(prefix, bits, 'ipv4');
}
for (const [prefix, bits] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  BLOCKED.addSubnet(prefix, bits, 'ipv6');
}

/** The IPv4 address carried inside an IPv6 one (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16), if any. */
function embeddedIpv4(ipv6: string): string | undefined {
  const lower = ipv6.toLowerCase();
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const words = expandIpv6(lower);
  if (!words) return undefined;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  // ::ffff:x:y (mapped, written in hex), 64:ff9b::x:y (NAT64), ::x:y (deprecated compatible form)
  if (words.slice(0, 5).every((w) => w === 0) && (words[5] === 0xffff || words[5] === 0)) return v4(words[6]!, words[7]!);
  if (words[0] === 0x64 && words[1] === 0xff9b && words.slice(2, 6).every((w) => w === 0)) return v4(words[6]!, words[7]!);
  if (words[0] === 0x2002) return v4(words[1]!, words[2]!);
  return undefined;
}

/** The eight 16-bit words of an IPv6 address, or undefined. */
function expandIpv6(address: string): number[] | undefined {
  const zone = address.indexOf('%');
  let text = zone >= 0 ? address.slice(0, zone) : address;
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail) {
    const parts = tail[1]!.split('.').map(Number);
    text = `${text.slice(0, -tail[1]!.length)}${((parts[0]! << 8) | parts[1]!).toString(16)}:${((parts[2]! << 8) | parts[3]!).toString(16)}`;
  }
  const [head = '', rest] = text.split('::');
  const a = head ? head.split(':') : [];
  const b = rest ? rest.split(':') : [];
  const fill = rest === undefined ? [] : Array<string>(8 - a.length - b.length).fill('0');
  const words = [...a, ...fill, ...b].map((w) => parseInt(w, 16));
  return words.length === 8 && words.every((w) => w >= 0 && w <= 0xffff) ? words : undefined;
}

/** Whether an IP address is one a request from the server may go to in production. */
export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return !BLOCKED.check(address, 'ipv4');
  if (family !== 6) return false;
  const inner = embeddedIpv4(address);
  if (inner !== undefined) return isPublicAddress(inner);
  return !BLOCKED.check(address.split('%')[0]!, 'ipv6');
}

export class RefusedTargetError extends Error {
  constructor(
    readonly host: string,
    readonly address?: string,
  ) {
    super(address ? `${host} resolves to ${address}, a private, loopback or link-local address` : `${host} could not be resolved`);
    this.name = 'RefusedTargetError';
  }
}

/** The host of a URL as DNS and net know it: IPv6 literals without their brackets. */
export const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/** Resolves a host (every address) and refuses it unless all are public. Literal addresses are checked as they are. */
export async function checkPublicHost(host: string): Promise<string[]> {
  if (net.isIP(host)) {
    if (!isPublicAddress(host)) throw new RefusedTargetError(host, host);
    return [host];
  }
  let found: dns.LookupAddress[];
  try {
    found = await dns.promises.lookup(host, { all: true, verbatim: true });
  } catch {
    throw new RefusedTargetError(host);
  }
  const bad = found.find((a) => !isPublicAddress(a.address));
  if (bad) throw new RefusedTargetError(host, bad.address);
  return found.map((a) => a.address);
}

/**
 * A `lookup` for http.request that resolves every address of the host and refuses the connection unless all are
 * public; the connection then uses the addresses that were checked.
 */
export const publicOnlyLookup: net.LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true, verbatim: true }, (err, addresses) => {
    if (err) return callback(err, '', 0);
    const list = addresses;
    const bad = list.find((a) => !isPublicAddress(a.address));
    if (bad || list.length === 0) return callback(new RefusedTargetError(hostname, bad?.address), '', 0);
    if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
    callback(null, list[0]!.address, list[0]!.family);
  });
};
