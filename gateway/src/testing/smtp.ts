/**
 * A real SMTP server on 127.0.0.1 (smtp-server) that keeps every mail it receives, parsed (mailparser), for the
 * tests of mail to requesters (gateway/test/requester, e2e/requester.e2e.ts). `failNext(n)` answers the next n mails
 * with a temporary failure (451). `port` 0 (default) takes a free one.
 *
 * `parseLater`: each mail is kept raw as it arrives and parsed only by `parseAll()` (the bench, bench/scenarios/
 * replies.ts: on a two-core machine, parsing hundreds of mails a second inside the timed runs took the CPU of the
 * gateway being measured; the mail server that receives our replies is never on the gateway's machine). Reading
 * `parsed` before `parseAll()` has reached the mail throws.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';

export interface ReceivedMail {
  parsed: ParsedMail;
  raw: string;
  envelopeTo: string[];
  at: number;
}

export interface TestSmtp {
  url: string;
  received: ReceivedMail[];
  /**
   * Parses the mails kept raw so far (`parseLater`), in arrival order, and resolves with the mails parsed: `received`
   * up to the last one it parsed (more may have arrived meanwhile). Without `parseLater`: the mails parsed so far.
   */
  parseAll(): Promise<ReceivedMail[]>;
  /** Resolves once `count` mails have arrived (matching `match`), or rejects after `timeoutMs`. */
  waitFor(count: number, match?: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail[]>;
  failNext(count: number): void;
  close(): Promise<void>;
}

export async function startSmtp(port = 0, options: { parseLater?: boolean } = {}): Promise<TestSmtp> {
  const received: ReceivedMail[] = [];
  /** Mails kept raw (`parseLater`), in arrival order, with where their parse goes. */
  const unparsed: { mail: ReceivedMail; set(parsed: ParsedMail): void }[] = [];
  /** How many of `received` are parsed (`parseLater`: they are parsed in arrival order). */
  let parsedCount = 0;
  const waiters = new Set<() => void>();
  let failures = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const envelopeTo = session.envelope.rcptTo.map((r) => r.address);
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (failures > 0) {
          failures--;
          const error = Object.assign(new Error('Try again later'), { responseCode: 451 });
          callback(error);
          return;
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        if (options.parseLater) {
          let parsed: ParsedMail | undefined;
          const mail: ReceivedMail = {
            get parsed(): ParsedMail {
              if (!parsed) throw new Error('startSmtp({ parseLater }): read `parsed` of the mails parseAll() resolves with');
              return parsed;
            },
            raw,
            envelopeTo,
            at: performance.now(),
          };
          received.push(mail);
          unparsed.push({ mail, set: (p) => (parsed = p) });
          for (const wake of waiters) wake();
          callback(null);
          return;
        }
        void simpleParser(raw).then((parsed) => {
          received.push({ parsed, raw, envelopeTo, at: performance.now() });
          for (const wake of waiters) wake();
        });
        callback(null);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${bound}`,
    received,
    async parseAll() {
      if (!options.parseLater) return [...received];
      for (const entry of unparsed.splice(0)) {
        entry.set(await simpleParser(entry.mail.raw));
        parsedCount++;
      }
      return received.slice(0, parsedCount);
    },
    failNext(count) {
      failures = count;
    },
    waitFor(count, match = () => true, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const got = received.filter(match);
          if (got.length >= count) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(got);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`expected ${count} mails, got ${received.filter(match).length}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
