// The public-address rule of from-url as a pure function: which IPs Herald may fetch from.
import { describe, expect, it } from 'vitest';
import { nonPublicRange } from '../domain/publicAddress.ts';

describe('nonPublicRange', () => {
  it('lets public unicast addresses through, IPv4 and IPv6', () => {
    for (const ip of [
      '8.8.8.8',
      '1.1.1.1',
      '172.32.0.1',
      '100.128.0.1',
      '192.0.3.1',
      '169.253.255.255',
      '223.255.255.255',
      '2606:4700::1111',
      '2001:4860:4860::8888',
      '2a00:1450:4001:82a::200e',
      '::ffff:8.8.8.8',
    ]) {
      expect(nonPublicRange(ip), ip).toBeUndefined();
    }
  });

  it('names the range of every address that is not public', () => {
    const cases: [string, string][] = [
      ['127.0.0.1', 'loopback'],
      ['127.255.255.254', 'loopback'],
      ['::1', 'loopback'],
      ['10.0.0.1', 'private'],
      ['172.16.0.1', 'private'],
      ['172.31.255.255', 'private'],
      ['192.168.0.1', 'private'],
      ['169.254.0.1', 'link-local'],
      ['fe80::1', 'link-local'],
      ['fe80::1%eth0', 'link-local'],
      ['fc00::1', 'unique-local'],
      ['fdff:ffff::1', 'unique-local'],
      ['100.64.0.1', 'carrier-grade NAT (CGNAT)'],
      ['100.127.255.255', 'carrier-grade NAT (CGNAT)'],
      ['224.0.0.1', 'multicast'],
      ['239.255.255.250', 'multicast'],
      ['ff02::1', 'multicast'],
      ['255.255.255.255', 'broadcast'],
      ['0.0.0.0', 'unspecified ("this network")'],
      ['::', 'unspecified'],
      ['169.254.169.254', 'cloud metadata'],
      ['100.100.100.200', 'cloud metadata'],
      ['fd00:ec2::254', 'cloud metadata'],
      ['192.0.2.1', 'documentation'],
      ['2001:db8::1', 'documentation'],
      ['240.0.0.1', 'reserved'],
      ['64:ff9b::7f00:1', 'NAT64 translation'],
      ['2002:7f00:1::1', '6to4'],
      ['2001::1', 'IETF protocol assignment (Teredo and others)'],
      ['::ffff:127.0.0.1', 'loopback (IPv4 inside IPv6)'],
      ['::ffff:7f00:1', 'loopback (IPv4 inside IPv6)'],
      ['::ffff:169.254.169.254', 'cloud metadata (IPv4 inside IPv6)'],
      ['0:0:0:0:0:ffff:c0a8:0101', 'private (IPv4 inside IPv6)'],
      ['::2', 'reserved'],
      ['4000::1', 'reserved'],
      ['localhost', 'not an IP address'],
    ];
    for (const [ip, range] of cases) expect(nonPublicRange(ip), ip).toBe(range);
  });
});
