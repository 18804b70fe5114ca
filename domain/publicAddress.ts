// Which IP addresses Herald may fetch from on a user's behalf: public unicast only. Everything else
// (loopback, private, link-local, unique-local, CGNAT, multicast, broadcast, unspecified, cloud
// metadata, documentation and translation ranges) would let a URL reach the server's own network.
import net from 'node:net';

interface Range {
  family: 4 | 6;
  base: bigint;
  bits: number;
  name: string;
}

function range(cidr: string, name: string): Range {
  const [address, bits] = cidr.split('/') as [string, string];
  const family = net.isIP(address) as 4 | 6;
  return { family, base: toBigInt(address, family), bits: Number(bits), name };
}

/** Refused ranges, most specific first so a message names the narrowest one. */
const REFUSED: Range[] = [
  range('169.254.169.254/32', 'cloud metadata'),
  range('100.100.100.200/32', 'cloud metadata'),
  range('fd00:ec2::254/128', 'cloud metadata'),
  range('255.255.255.255/32', 'broadcast'),
  range('0.0.0.0/8', 'unspecified ("this network")'),
  range('10.0.0.0/8', 'private'),
  range('100.64.0.0/10', 'carrier-grade NAT (CGNAT)'),
  range('127.0.0.0/8', 'loopback'),
  range('169.254.0.0/16', 'link-local'),
  range('172.16.0.0/12', 'private'),
  range('192.0.0.0/24', 'IETF protocol assignment'),
  range('192.0.2.0/24', 'documentation'),
  range('192.88.99.0/24', '6to4 relay'),
  range('192.168.0.0/16', 'private'),
  range('198.18.0.0/15', 'benchmarking'),
  range('198.51.100.0/24', 'documentation'),
  range('203.0.113.0/24', 'documentation'),
  range('224.0.0.0/4', 'multicast'),
  range('240.0.0.0/4', 'reserved'),
  range('::/128', 'unspecified'),
  range('::1/128', 'loopback'),
  range('64:ff9b::/96', 'NAT64 translation'),
  range('64:ff9b:1::/48', 'NAT64 translation'),
  range('100::/64', 'discard'),
  range('2001::/23', 'IETF protocol assignment (Teredo and others)'),
  range('2001:db8::/32', 'documentation'),
  range('2002::/16', '6to4'),
  range('3fff::/20', 'documentation'),
  range('fc00::/7', 'unique-local'),
  range('fe80::/10', 'link-local'),
  range('fec0::/10', 'site-local'),
  range('ff00::/8', 'multicast'),
];

/** Global unicast IPv6 is 2000::/3; anything outside it is not a public address. */
const GLOBAL_UNICAST_V6 = range('2000::/3', 'global unicast');
const IPV4_MAPPED = range('::ffff:0:0/96', 'IPv4-mapped');

/** Why `address` is not public (the range's name), or undefined for a public unicast address. */
export function nonPublicRange(address: string): string | undefined {
  const family = net.isIP(address);
  if (family === 0) return 'not an IP address';
  const value = toBigInt(address, family as 4 | 6);
  if (family === 6 && inRange(value, 6, IPV4_MAPPED)) {
    // The socket would reach the embedded IPv4 address: judge that one.
    const inner = nonPublicRange(fromV4BigInt(value & 0xffffffffn));
    return inner && `${inner} (IPv4 inside IPv6)`;
  }
  const refused = REFUSED.find((r) => inRange(value, family, r));
  if (refused) return refused.name;
  if (family === 6 && !inRange(value, 6, GLOBAL_UNICAST_V6)) return 'reserved';
  return undefined;
}

function inRange(value: bigint, family: number, r: Range): boolean {
  if (family !== r.family) return false;
  const width = family === 4 ? 32 : 128;
  const shift = BigInt(width - r.bits);
  return value >> shift === r.base >> shift;
}

function toBigInt(address: string, family: 4 | 6): bigint {
  if (family === 4) return address.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
  let text = address.toLowerCase().replace(/%.*$/, '');
  // A trailing dotted quad (::ffff:1.2.3.4) is two 16-bit groups.
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (quad) {
    const v4 = toBigInt(quad[1]!, 4);
    text = text.slice(0, -quad[1]!.length) + `${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head = '', tail] = text.split('::') as [string, string | undefined];
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const missing = 8 - headGroups.length - tailGroups.length;
  const groups = tail === undefined ? headGroups : [...headGroups, ...Array<string>(missing).fill('0'), ...tailGroups];
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n);
}

function fromV4BigInt(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((s) => String((value >> s) & 0xffn)).join('.');
}

/** Why networks on the internet cannot fetch from `publicUrl` (live mode warns at start), if they cannot. */
export function publicUrlProblem(publicUrl: string): string | undefined {
  const url = new URL(publicUrl);
  if (url.protocol !== 'https:') return 'is not https';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local'))
    return `names ${host}, which only this machine knows`;
  const range = net.isIP(host) ? nonPublicRange(host) : undefined;
  return range ? `points at a ${range} address` : undefined;
}
