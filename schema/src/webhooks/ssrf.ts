/**
 * Where a webhook may point (docs/webhooks.md, "Safe by default"). Only `https://` to public addresses, unless the
 * operator lists a host name, an IP or a CIDR in FULCRUM_WEBHOOK_ALLOW_HOSTS. Every address a name resolves to is
 * checked, at registration and again before each delivery, and the delivery connects to the address that was
 * checked (http.ts), so a DNS answer that changes in between cannot redirect it.
 *
 * URLs are parsed by the WHATWG URL parser (as browsers do), which normalises numeric host tricks (`2130706433`,
 * `0x7f.1`, `017700000001`, `[::ffff:127.0.0.1]`) to the canonical address before anything is checked; addresses
 * are classified by ipaddr.js, never by hand-written prefix tests.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { WEBHOOK_LIMITS, WEBHOOK_MESSAGES } from '../validation/rules.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** A refused destination; the message is for the agent (shown at registration and in the delivery log). */
export class WebhookTargetError extends Error {}

export interface AllowList {
  names: Set<string>;
  ranges: [Address, number][];
  /** The setting as written, for messages. */
  source: string;
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export interface Destination {
  url: URL;
  /** The host name as written in the URL (no brackets): Host header and TLS server name. */
  hostname: string;
  /** The checked addresses; the delivery connects to the first. */
  addresses: ResolvedAddress[];
}

export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));

function normalizeName(name: string): string {
  return name.trim().toLowerCase().replace(/\.$/, '');
}

/** Parses FULCRUM_WEBHOOK_ALLOW_HOSTS: comma-separated host names, IP addresses and CIDR ranges. */
export function parseAllowList(setting: string | undefined): AllowList {
  const list: AllowList = { names: new Set(), ranges: [], source: setting ?? '' };
  for (const raw of (setting ?? '').split(',')) {
    const entry = raw.trim();
    if (!entry) continue;
    if (entry.includes('/')) {
      if (!ipaddr.isValidCIDR(entry)) throw new Error(`FULCRUM_WEBHOOK_ALLOW_HOSTS: "${entry}" is not a valid CIDR range (e.g. 10.0.0.0/8 or fd00::/8).`);
      list.ranges.push(ipaddr.parseCIDR(entry));
    } else if (isIP(entry.replace(/^\[|\]$/g, ''))) {
      const address = ipaddr.parse(entry.replace(/^\[|\]$/g, ''));
      list.ranges.push([address, address.kind() === 'ipv4' ? 32 : 128]);
    } else if (/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?$/i.test(entry)) {
      list.names.add(normalizeName(entry));
    } else {
      throw new Error(`FULCRUM_WEBHOOK_ALLOW_HOSTS: "${entry}" is neither a host name, an IP address nor a CIDR range.`);
    }
  }
  return list;
}

function inRanges(address: Address, ranges: AllowList['ranges']): boolean {
  return ranges.some(([base, bits]) => {
    if (base.kind() !== address.kind()) return false;
    return (address as ipaddr.IPv4).match(base, bits);
  });
}

const RANGE_NAMES: Record<string, string> = {
  loopback: 'a loopback address (this machine)',
  private: 'a private-network address',
  linkLocal: 'a link-local address (where cloud metadata services live)',
  carrierGradeNat: 'a carrier-grade NAT address',
  multicast: 'a multicast address',
  unspecified: 'the unspecified address',
  broadcast: 'the broadcast address',
  uniqueLocal: 'an IPv6 unique-local (private) address',
  reserved: 'a reserved address',
  benchmarking: 'a benchmarking address',
};

/** Ranges an allowlisted host *name* may resolve into: the LAN. Metadata, multicast and the like never. */
const LAN_RANGES = new Set(['private', 'loopback', 'carrierGradeNat', 'uniqueLocal']);

/** The range of an address, IPv4-mapped IPv6 (::ffff:a.b.c.d) judged as the IPv4 address it carries. */
function classify(address: Address): { address: Address; range: string } {
  if (address.kind() === 'ipv6') {
    const v6 = address as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) return classify(v6.toIPv4Address());
    const range = v6.range();
    // Public IPv6 is 2000::/3; anything else (IPv4-compatible ::a.b.c.d, NAT64, 6to4, Teredo, ...) is refused.
    if (range === 'unicast' && !v6.match(ipaddr.IPv6.parse('2000::'), 3)) return { address, range: 'special' };
    return { address, range };
  }
  return { address, range: (address as ipaddr.IPv4).range() };
}

function addressProblem(raw: string, hostname: string, nameAllowed: boolean, allow: AllowList): string | null {
  const parsed = ipaddr.parse(raw);
  if (inRanges(parsed, allow.ranges)) return null;
  const { address, range } = classify(parsed);
  if (inRanges(address, allow.ranges)) return null;
  if (range === 'unicast') return null;
  if (nameAllowed && LAN_RANGES.has(range)) return null;
  const what = RANGE_NAMES[range] ?? 'a special-purpose address';
  const from = isIP(hostname) ? '' : ` (${hostname} resolves to it)`;
  return `${address.toString()} is ${what}${from}; webhooks may only reach public addresses. ${WEBHOOK_MESSAGES.askToAllow}`;
}

/** Parses a webhook URL; its shape only (no DNS). */
export function parseWebhookUrl(raw: unknown): URL {
  if (typeof raw !== 'string' || raw.trim() === '' || raw.length > WEBHOOK_LIMITS.urlLength || raw.includes('\u0000'))
    throw new WebhookTargetError(WEBHOOK_MESSAGES.url);
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new WebhookTargetError(WEBHOOK_MESSAGES.url);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new WebhookTargetError(WEBHOOK_MESSAGES.url);
  if (url.username || url.password) throw new WebhookTargetError('URL must not contain a user name or password; authenticate the request by its signature.');
  if (!url.hostname) throw new WebhookTargetError(WEBHOOK_MESSAGES.url);
  return url;
}

/**
 * Checks a destination and resolves it: the URL's shape, its scheme, and every address of its host. Throws a
 * WebhookTargetError saying what is wrong and what to do.
 */
export async function checkDestination(raw: unknown, allow: AllowList, resolve: Resolver = systemResolver): Promise<Destination> {
  const url = parseWebhookUrl(raw);
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  const literal = isIP(hostname) !== 0;
  const nameAllowed = !literal && allow.names.has(normalizeName(hostname));
  let addresses: ResolvedAddress[];
  if (literal) {
    addresses = [{ address: hostname, family: isIP(hostname) === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await resolve(hostname);
    } catch (error) {
      const code = (error as { code?: string }).code;
      throw new WebhookTargetError(`The host name ${hostname} does not resolve${code ? ` (${code})` : ''}; check the URL.`);
    }
    if (!addresses.length) throw new WebhookTargetError(`The host name ${hostname} does not resolve; check the URL.`);
  }
  for (const { address } of addresses) {
    const problem = addressProblem(address, hostname, nameAllowed, allow);
    if (problem) throw new WebhookTargetError(problem);
  }
  if (url.protocol === 'http:') {
    const everyAddressListed = addresses.every(
      (a) => inRanges(classify(ipaddr.parse(a.address)).address, allow.ranges) || inRanges(ipaddr.parse(a.address), allow.ranges),
    );
    if (!nameAllowed && !everyAddressListed) {
      throw new WebhookTargetError(WEBHOOK_MESSAGES.httpNotAllowed);
    }
  }
  return { url, hostname, addresses };
}
