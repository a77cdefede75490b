/**
 * A private Postfix for the mail interop test: Debian's own binaries (scripts/ensureSystemPackages.sh installs
 * them), run as the test's instance with its own config, queue and data directories under one temp dir, so the
 * system instance (stopped, disabled) and its /etc/postfix are never touched.
 *
 * Design notes:
 * - `postfix -c <dir> start` needs no `alternate_config_directories` when run as root (the check guards the set-gid
 *   postdrop/postqueue of other users); root is also what Postfix's master needs. Elsewhere the test is skipped
 *   with a message (`postfixUnavailable`).
 * - Loopback only: `inet_interfaces = 127.0.0.1`, one smtpd on a free high port, `mynetworks = 127.0.0.0/8`,
 *   `mydestination` empty, no relayhost and `default_transport = error`: a recipient of no test domain is refused
 *   or bounced, never relayed outside. DNS is off (`smtp_dns_support_level = disabled`, bracketed next hops).
 * - The help desk's domain is relayed to the Fulcrum listener by a transport map (`smtp:[127.0.0.1]:<port>`), as
 *   docs/email.md sets production up; the requesters' domains are virtual mailbox domains delivered into one
 *   Maildir (`<dir>/mail/requesters/`: virtual(8) allows no per-address substitution from a regexp map, and a
 *   mail's `Delivered-To` names its recipient) owned by `nobody`; `refusingDomain` is relayed to a tiny SMTP
 *   server that refuses every recipient with `550 5.1.1`, so Postfix writes a real DSN (RFC 3464) back to the
 *   sender of the mail: our reply's bounce.
 * - Every service runs unchrooted (the chroot would need copies of /etc files); `maillog_file` with the postlog
 *   service writes the log to `<dir>/maillog` (its prefix allowed by `maillog_file_prefixes`), read on failure.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { SMTPServer } from 'smtp-server';

const run = promisify(execFile);
const POSTFIX = '/usr/sbin/postfix';

/** Why Postfix cannot run here, or null when it can. */
export function postfixUnavailable(): string | null {
  if (!existsSync(POSTFIX)) return `no Postfix binary at ${POSTFIX} (install it: scripts/ensureSystemPackages.sh)`;
  if (process.getuid?.() !== 0) return 'a private Postfix instance needs root (its master process runs as root)';
  return null;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** A free TCP port on 127.0.0.1 (closed again at once). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface PostfixOptions {
  /** The port Postfix's smtpd listens on (127.0.0.1). */
  port: number;
  /** The help desk's domain and the Fulcrum listener's port it is relayed to. */
  deskDomain: string;
  listenerPort: number;
  /** Domains whose mail lands in the requesters' Maildir. */
  mailboxDomains: string[];
  /** A domain whose mail server refuses every recipient (550 5.1.1): mail to it bounces. */
  refusingDomain: string;
}

export interface Postfix {
  port: number;
  /** The mails delivered to the requesters' Maildir so far, as raw text. */
  maildir(): Promise<string[]>;
  /** Asks Postfix to deliver its deferred mail now (`postqueue -f`). */
  flush(): Promise<void>;
  log(): Promise<string>;
  stop(): Promise<void>;
}

const SERVICES = [
  'pickup unix n - n 60 1 pickup',
  'cleanup unix n - n - 0 cleanup',
  'qmgr unix n - n 300 1 qmgr',
  'rewrite unix - - n - - trivial-rewrite',
  'bounce unix - - n - 0 bounce',
  'defer unix - - n - 0 bounce',
  'trace unix - - n - 0 bounce',
  'verify unix - - n - 1 verify',
  'flush unix n - n 1000? 0 flush',
  'proxymap unix - - n - - proxymap',
  'smtp unix - - n - - smtp',
  'relay unix - - n - - smtp',
  'showq unix n - n - - showq',
  'error unix - - n - - error',
  'retry unix - - n - - error',
  'discard unix - - n - - discard',
  'virtual unix - n n - - virtual',
  'anvil unix - - n - 1 anvil',
  'scache unix - - n - 1 scache',
  'postlog unix-dgram n - n - 1 postlogd',
];

/** The refusing mail server of `refusingDomain`: every RCPT is answered 550 5.1.1. */
async function startRefusingServer(): Promise<{ port: number; close(): Promise<void> }> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      callback(Object.assign(new Error(`5.1.1 <${address.address}>: Recipient address rejected: User unknown`), { responseCode: 550 }));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as { port: number };
  return { port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

export async function startPostfix(options: PostfixOptions): Promise<Postfix> {
  const dir = await mkdtemp(join(tmpdir(), 'fulcrum-postfix-'));
  await chmod(dir, 0o755); // Postfix's daemons run as its mail_owner and must reach the queue.
  const [etc, queue, data, mail] = ['etc', 'queue', 'data', 'mail'].map((d) => join(dir, d));
  for (const d of [etc, queue, data, mail]) await mkdir(d);
  const { stdout } = await run('id', ['-u', 'postfix']);
  await chown(data, Number(stdout.trim()), 0);
  const nobody = Number((await run('id', ['-u', 'nobody'])).stdout.trim());
  const nogroup = Number((await run('id', ['-g', 'nobody'])).stdout.trim());
  await chown(mail, nobody, nogroup);
  const refusing = await startRefusingServer();
  const domains = options.mailboxDomains.join(' ');
  await writeFile(
    join(etc, 'main.cf'),
    [
      'compatibility_level = 3.6',
      `queue_directory = ${queue}`,
      `data_directory = ${data}`,
      `maillog_file = ${join(dir, 'maillog')}`,
      `maillog_file_prefixes = ${dir}`,
      'myhostname = mx.interop.test',
      'mydomain = interop.test',
      'inet_interfaces = 127.0.0.1',
      'inet_protocols = ipv4',
      'mydestination =',
      'mynetworks = 127.0.0.0/8',
      'relayhost =',
      'default_transport = error:5.7.1 nothing leaves the interop test',
      'relay_transport = error:5.7.1 nothing leaves the interop test',
      `relay_domains = ${options.deskDomain} ${options.refusingDomain}`,
      `transport_maps = texthash:${join(etc, 'transport')}`,
      `virtual_mailbox_domains = ${domains}`,
      `virtual_mailbox_base = ${mail}`,
      'virtual_mailbox_maps = static:requesters/',
      `virtual_uid_maps = static:${nobody}`,
      `virtual_gid_maps = static:${nogroup}`,
      'alias_maps =',
      'alias_database =',
      'smtp_dns_support_level = disabled',
      'smtpd_peername_lookup = no',
      'smtp_tls_security_level = none',
      // Deferred mail is retried soon (the listener may answer 451 while a database is busy).
      'queue_run_delay = 1s',
      'minimal_backoff_time = 1s',
      'maximal_backoff_time = 2s',
      '',
    ].join('\n'),
  );
  await writeFile(
    join(etc, 'transport'),
    `${options.deskDomain} smtp:[127.0.0.1]:${options.listenerPort}\n${options.refusingDomain} smtp:[127.0.0.1]:${refusing.port}\n`,
  );
  await writeFile(join(etc, 'master.cf'), [`127.0.0.1:${options.port} inet n - n - - smtpd`, ...SERVICES, ''].join('\n'));
  const postfix = (...args: string[]) => run(POSTFIX, ['-c', etc, ...args]);
  const log = () => readFile(join(dir, 'maillog'), 'utf8').catch(() => '');
  try {
    await postfix('start');
  } catch (error) {
    await refusing.close();
    throw new Error(`Postfix did not start: ${(error as Error).message}\n${await log()}`);
  }
  return {
    port: options.port,
    async maildir() {
      const box = join(mail, 'requesters', 'new');
      const files = existsSync(box) ? await readdir(box) : [];
      return Promise.all(files.sort().map((f) => readFile(join(box, f), 'utf8')));
    },
    async flush() {
      await run('/usr/sbin/postqueue', ['-c', etc, '-f']);
    },
    log,
    async stop() {
      const pid = Number((await readFile(join(queue, 'pid', 'master.pid'), 'utf8').catch(() => '')).trim());
      await postfix('stop').catch(() => undefined);
      // `postfix stop` signals the master; wait for it to be gone before removing its directories.
      for (let i = 0; pid > 0 && i < 100 && alive(pid); i++) await new Promise((resolve) => setTimeout(resolve, 50));
      await refusing.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
