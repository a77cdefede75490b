/**
 * FULCRUM_MAIL_DNS (docs/email.md "Authentication"): mailauth's DNS look-ups (SPF, DKIM keys, DMARC policies) go to
 * the operator's resolver at `host:port` instead of the system's, through node's own resolver
 * (`dns.promises.Resolver` with `setServers`), wrapped as mailauth's `resolver(name, rrtype)`. Each look-up is tried
 * once and given up after `timeoutMs` (the listener also bounds it), so a resolver that does not answer gives
 * `temperror`, never a stuck mail.
 */
import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';

/** The server of `host:port` (an IP address; IPv6 in brackets) as `setServers` takes it, or null. */
export function parseDnsServer(value: string): string | null {
  const m = /^(?:\[([0-9a-f:.]+)\]|([0-9.]+)):(\d{1,5})$/i.exec(value.trim());
  if (!m) return null;
  const host = m[1] ?? m[2];
  const port = Number(m[3]);
  if (port < 1 || port > 65535) return null;
  if (m[1] !== undefined ? isIP(host) !== 6 : isIP(host) !== 4) return null;
  return m[1] !== undefined ? `[${host}]:${port}` : `${host}:${port}`;
}

/** mailauth's resolver asking only the DNS server at `server` (`host:port`, checked with parseDnsServer). */
export function dnsResolver(server: string, timeoutMs = 2000): (name: string, rrtype: string) => Promise<string[][] | string[]> {
  const parsed = parseDnsServer(server);
  if (!parsed) throw new Error(`FULCRUM_MAIL_DNS must be host:port of a DNS server (an IP address), not "${server}".`);
  const dns = new Resolver({ timeout: timeoutMs, tries: 1 });
  dns.setServers([parsed]);
  return (name, rrtype) => dns.resolve(name, rrtype) as Promise<string[][] | string[]>;
}
