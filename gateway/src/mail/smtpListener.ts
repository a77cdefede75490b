/**
 * The SMTP listener (docs/email.md "Incoming mail"): off unless FULCRUM_SMTP_LISTEN is set; an MTA such
 * as Postfix relays the help desk's mail to it. smtp-server speaks SMTP, mailauth checks SPF, DKIM and DMARC, and
 * the schema's incoming-mail service (services/incomingMail.ts) decides and writes what the mail becomes.
 *
 * - Size: FULCRUM_MAIL_MAX_BYTES (default 25 MB) is advertised with EHLO `SIZE`; a `MAIL FROM ... SIZE=` beyond it,
 *   or a message that turns out larger, is answered 552 5.3.4 and nothing is kept.
 * - Accepted means committed: 250 only once the service's transaction has committed; a failure to write is 451
 *   (the MTA keeps the mail and retries), a mail from a new address with no agent to own it too.
 * - Never a crash: every step of a message is caught and answered; the server's own errors (a client's garbage,
 *   a reset connection) are logged and the next connection is served.
 * - Authentication: the client address is the connection's, or for a connection from a trusted relay
 *   (FULCRUM_SMTP_TRUSTED_RELAYS) the one in the topmost `Received` header that relay added. DNS goes through a
 *   resolver that is a setting (tests give fixed answers) with a 2 s timeout per look-up: a machine without DNS
 *   gets `temperror`, which is only shown. No DMARC result for a mail that has a From (mailauth gives none when it
 *   names more than one address) is `fail`; `dkimAligned` says whether a signature of the From's domain verified,
 *   `dmarcPolicy` what the From's domain asks of mail that fails (`reject` holds a new mail: docs/email.md "Forged mail").
 */
import { Resolver } from 'node:dns/promises';
import type { AddressInfo } from 'node:net';
import { isIP } from 'node:net';
import { hostname } from 'node:os';
import { authenticate, type DNSResolver } from 'mailauth';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import { incomingMail, type ServiceDeps } from '@fulcrum/schema';

export const DEFAULT_MAIL_MAX_BYTES = 25 * 1024 * 1024;
const DNS_TIMEOUT_MS = 2000;

export interface SmtpListenerOptions {
  /** FULCRUM_SMTP_LISTEN: `host:port` (`127.0.0.1:2525`, `[::1]:2525`); port 0 takes a free one. */
  listen: string;
  /** FULCRUM_MAIL_MAX_BYTES. */
  maxBytes?: number;
  /** FULCRUM_SMTP_TRUSTED_RELAYS: the MTAs' addresses whose `Received` header names the real client. */
  trustedRelays?: string[];
  /** DNS for mailauth (tests pass fixed answers); default: the system's, each look-up at most 2 s. */
  resolver?: DNSResolver;
  dnsTimeoutMs?: number;
  log?: (error: unknown, where: string) => void;
}

export interface SmtpListener {
  host: string;
  port: number;
  close(): Promise<void>;
}

/** `host:port` of FULCRUM_SMTP_LISTEN, or null when it is not one. */
export function parseListen(value: string): { host: string; port: number } | null {
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]\s]*)):(\d{1,5})$/.exec(value.trim());
  if (!m) return null;
  const port = Number(m[3]);
  if (port > 65535) return null;
  return { host: m[1] ?? (m[2] || '0.0.0.0'), port };
}

/** An SMTP refusal with its code (smtp-server answers `<code> <message>`). */
function smtpError(code: number, message: string): Error {
  return Object.assign(new Error(message), { responseCode: code });
}

/** Each look-up of `resolver` at most `ms`; beyond it an ETIMEOUT error, which mailauth reports as temperror. */
function timed(resolver: DNSResolver, ms: number): DNSResolver {
  return (name, rrtype) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(Object.assign(new Error(`DNS timeout for ${name}`), { code: 'ETIMEOUT' })), ms);
      resolver(name, rrtype).then(
        (answer) => {
          clearTimeout(timer);
          resolve(answer);
        },
        (error: Error) => {
          clearTimeout(timer);
          reject(error);
        },
      );
    });
}

function systemResolver(ms: number): DNSResolver {
  const dns = new Resolver({ timeout: ms, tries: 1 });
  return (name, rrtype) => dns.resolve(name, rrtype) as Promise<string[][] | string[]>;
}

/** The client address: the connection's, but a trusted relay's `Received` header's (mailauth reads it). */
function clientOf(session: SMTPServerSession, trusted: Set<string>): { ip?: string; helo?: string; trustReceived: boolean } {
  const remote = (session.remoteAddress ?? '').replace(/^::ffff:/, '');
  if (trusted.has(remote)) return { trustReceived: true };
  return { ip: isIP(remote) ? remote : undefined, helo: session.hostNameAppearsAs || session.clientHostname || undefined, trustReceived: false };
}

/** mailauth's DMARC policy (`none`, `quarantine`, `reject`), lower case, when the domain publishes one. */
function policyOf(dmarc: unknown): { dmarcPolicy?: string } {
  const policy = (dmarc as { policy?: unknown } | false | undefined) && (dmarc as { policy?: unknown }).policy;
  return typeof policy === 'string' && /^(none|quarantine|reject)$/i.test(policy) ? { dmarcPolicy: policy.toLowerCase() } : {};
}

type AuthOf = (raw: Buffer, session: SMTPServerSession) => Promise<incomingMail.MailAuthResult>;

function authenticator(options: SmtpListenerOptions): AuthOf {
  const ms = options.dnsTimeoutMs ?? DNS_TIMEOUT_MS;
  const resolver = timed(options.resolver ?? systemResolver(ms), ms);
  const trusted = new Set((options.trustedRelays ?? []).map((a) => a.trim()).filter(Boolean));
  const mta = hostname();
  return async (raw, session) => {
    try {
      const client = clientOf(session, trusted);
      const mailFrom = session.envelope.mailFrom;
      const result = await authenticate(raw, {
        ...client,
        sender: mailFrom ? mailFrom.address : undefined,
        mta,
        resolver,
        disableArc: true,
        disableBimi: true,
      });
      const dkimResults = result.dkim?.results ?? [];
      const dkim = dkimResults.some((r) => r.status?.result === 'pass') ? 'pass' : (dkimResults[0]?.status?.result ?? 'none');
      const froms = (result.dkim as { headerFrom?: string[] } | undefined)?.headerFrom ?? [];
      return {
        spf: String((result.spf && result.spf.status?.result) || 'none'),
        dkim: String(dkim),
        // mailauth judges no DMARC when the From names no single address (two From fields, two addresses in one):
        // with a From present that is a failure, never `none`.
        dmarc: String((result.dmarc && result.dmarc.status?.result) || (froms.length ? 'fail' : 'none')),
        // A signature of the From domain (relaxed alignment, mailauth's `aligned`) that verified, for one From only.
        dkimAligned: froms.length === 1 && dkimResults.some((r) => r.status?.result === 'pass' && !!(r.status as { aligned?: unknown }).aligned),
        // The policy the From domain publishes (its `sp` for a subdomain): a `fail` under `reject` holds a new mail.
        ...policyOf(result.dmarc),
      };
    } catch {
      return { spf: 'temperror', dkim: 'temperror', dmarc: 'temperror' };
    }
  };
}

/** Starts the listener; resolves once it is listening. */
export async function startSmtpListener(deps: ServiceDeps, options: SmtpListenerOptions): Promise<SmtpListener> {
  const where = parseListen(options.listen);
  if (!where) throw new Error(`FULCRUM_SMTP_LISTEN must be host:port, e.g. 127.0.0.1:2525, not "${options.listen}".`);
  const maxBytes = options.maxBytes ?? DEFAULT_MAIL_MAX_BYTES;
  const log = options.log ?? ((error, at) => console.error(`[fulcrum] ${at}:`, error));
  const authOf = authenticator(options);

  async function accept(stream: SMTPServerDataStream, session: SMTPServerSession): Promise<string> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      // Past the cap the rest is read and dropped (the client is still sending), then refused.
      if (size <= maxBytes) chunks.push(chunk);
    }
    if (stream.sizeExceeded || size > maxBytes) throw smtpError(552, `Message too big: at most ${maxBytes} bytes`);
    const raw = Buffer.concat(chunks);
    const auth = await authOf(raw, session);
    const mailFrom = session.envelope.mailFrom;
    const result = await incomingMail.receiveMail(deps, { raw, envelopeFrom: mailFrom ? mailFrom.address : null, auth });
    switch (result.outcome) {
      case 'TICKET':
        return `Accepted: ticket #${result.ticketId}`;
      case 'DUPLICATE':
        return 'Accepted before';
      default:
        return `Accepted`;
    }
  }

  const server = new SMTPServer({
    name: hostname(),
    banner: 'Fulcrum',
    size: maxBytes,
    authOptional: true,
    // Behind the MTA on a private address: no AUTH and no STARTTLS (the MTA speaks TLS to the world).
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    // Enhanced status codes (RFC 3463) on every answer, written by smtp-server once: 250 2.6.0 for an accepted mail,
    // 451 4.3.0, 552 5.3.4 for a mail too big (also for `MAIL FROM ... SIZE=`), 554 5.6.0 for a mail without a sender.
    // Our own texts carry none, so no answer says one twice.
    hideENHANCEDSTATUSCODES: false,
    // smtp-server itself refuses a message past `size` (552 5.3.4), whatever accept() answered.
    rejectOversized: true,
    maxClients: 200,
    socketTimeout: 60_000,
    onData(stream, session, callback) {
      accept(stream, session).then(
        (message) => callback(null, message),
        (error: unknown) => {
          if ((error as { responseCode?: number }).responseCode) return callback(error as Error);
          if (error instanceof incomingMail.NoMailOwnerError) {
            log(error, 'smtp: mail from a new address');
            return callback(smtpError(451, 'No agent to own mail from a new address; try again later'));
          }
          if ((error as { code?: string }).code === 'BAD_USER_INPUT') return callback(smtpError(554, (error as Error).message));
          log(error, 'smtp: recording a mail');
          stream.resume();
          callback(smtpError(451, 'Could not store the message; try again later'));
        },
      );
    },
  });
  server.on('error', (error) => log(error, 'smtp: connection'));
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(where.port, where.host, () => {
      server.server.off('error', reject);
      resolve();
    });
  });
  const address = server.server.address() as AddressInfo;
  return {
    host: address.address,
    port: address.port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
