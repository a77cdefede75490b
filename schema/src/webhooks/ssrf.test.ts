/** The allowlist rules of the SSRF guard, with names resolved by a table (no DNS needed). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkDestination, parseAllowList, WebhookTargetError, type Resolver } from './ssrf.js';

const DNS: Record<string, string[]> = {
  'crm.lan': ['10.0.5.7'],
  'public.example': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
  'rebind.example': ['93.184.216.34', '127.0.0.1'],
  'metadata.lan': ['169.254.169.254'],
  'mapped.example': ['::ffff:10.0.0.1'],
};
const resolve: Resolver = async (name) => {
  const found = DNS[name.toLowerCase().replace(/\.$/, '')];
  if (!found) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
  return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};
const check = (url: string, allow = '') => checkDestination(url, parseAllowList(allow), resolve);

describe('webhook destinations', () => {
  it('public https passes and connects to the checked address; every resolved address must be public', async () => {
    const dest = await check('https://public.example/hook');
    expect(dest.hostname).toBe('public.example');
    expect(dest.addresses[0].address).toBe('93.184.216.34');
    await expect(check('https://rebind.example/hook')).rejects.toThrow(
      /^127\.0\.0\.1 is a loopback address \(this machine\) \(rebind\.example resolves to it\)/,
    );
    await expect(check('https://mapped.example/')).rejects.toThrow(/^10\.0\.0\.1 is a private-network address/);
  });

  it('an allowlisted name may be a LAN address and use http; never the metadata range', async () => {
    await expect(check('http://crm.lan/hook')).rejects.toThrow(/private-network/);
    expect((await check('http://crm.lan:8080/hook', 'crm.lan')).addresses).toEqual([{ address: '10.0.5.7', family: 4 }]);
    expect((await check('https://CRM.LAN./hook', 'crm.lan')).hostname).toBe('crm.lan.');
    await expect(check('https://metadata.lan/', 'metadata.lan')).rejects.toThrow(/link-local/);
    // Listing the range itself is the explicit way.
    expect((await check('http://metadata.lan/', '169.254.169.254')).addresses[0].address).toBe('169.254.169.254');
  });

  it('an allowlisted IP or CIDR may be reached over http; others still need https', async () => {
    expect((await check('http://10.0.5.7/', '10.0.0.0/16')).addresses[0].address).toBe('10.0.5.7');
    expect((await check('http://crm.lan/', '10.0.5.0/24')).addresses[0].address).toBe('10.0.5.7');
    await expect(check('http://10.1.0.1/', '10.0.0.0/16')).rejects.toThrow(/private-network/);
    expect((await check('http://[::1]:9000/', '::1')).addresses[0]).toEqual({ address: '::1', family: 6 });
    expect((await check('http://127.0.0.1:9000/', '127.0.0.1')).url.port).toBe('9000');
    await expect(check('http://public.example/')).rejects.toThrow(/^URL must use https:\/\//);
  });

  it('a malformed allowlist is refused with what is wrong', () => {
    expect(() => parseAllowList('10.0.0.0/33')).toThrow(/not a valid CIDR range/);
    expect(() => parseAllowList('crm.lan, exa mple')).toThrow(/neither a host name/);
    expect(parseAllowList(' crm.lan , 10.0.0.0/8,::1,').names).toEqual(new Set(['crm.lan']));
  });

  it('fast-check: every private, loopback, link-local, CGNAT, multicast or unspecified IPv4 is refused in every spelling', async () => {
    const special = fc.oneof(
      fc.tuple(fc.constant(10), fc.nat(255), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.constant(127), fc.nat(255), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.constant(172), fc.integer({ min: 16, max: 31 }), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.constant(192), fc.constant(168), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.constant(169), fc.constant(254), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.constant(100), fc.integer({ min: 64, max: 127 }), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.integer({ min: 224, max: 239 }), fc.nat(255), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.constant(0), fc.nat(255), fc.nat(255), fc.nat(255)),
    );
    const spell = (o: number[], how: number) => {
      const n = ((o[0] << 24) >>> 0) + (o[1] << 16) + (o[2] << 8) + o[3];
      return [o.join('.'), String(n), `0x${n.toString(16)}`, `[::ffff:${o.join('.')}]`, o.map((x) => `0${x.toString(8)}`).join('.')][how];
    };
    await fc.assert(
      fc.asyncProperty(special, fc.integer({ min: 0, max: 4 }), async (octets, how) => {
        await expect(check(`https://${spell(octets, how)}/hook`)).rejects.toBeInstanceOf(WebhookTargetError);
      }),
      { numRuns: 300 },
    );
  });
});
