/**
 * A tiny DNS server on 127.0.0.1 (UDP, a free port) for the FULCRUM_MAIL_DNS test: it answers TXT queries from a
 * fixed table, NXDOMAIN for names it does not know and an empty answer for other types of a known name. Written by
 * hand (RFC 1035 §4: header, one question, TXT records of length-prefixed strings); dns-packet is not in the tree.
 */
import { createSocket } from 'node:dgram';

export interface TestDns {
  /** host:port, as FULCRUM_MAIL_DNS takes it. */
  address: string;
  /** The names asked, lower case, in order. */
  asked: string[];
  close(): Promise<void>;
}

/** The question of a query: its name, type and where it ends, or null when unreadable. */
function question(msg: Buffer): { name: string; type: number; end: number } | null {
  const labels: string[] = [];
  let at = 12;
  while (at < msg.length && msg[at] !== 0) {
    const len = msg[at];
    if (len > 63 || at + 1 + len > msg.length) return null;
    labels.push(msg.subarray(at + 1, at + 1 + len).toString('latin1'));
    at += 1 + len;
  }
  if (at + 5 > msg.length) return null;
  return { name: labels.join('.').toLowerCase(), type: msg.readUInt16BE(at + 1), end: at + 5 };
}

function txtRecord(strings: string[]): Buffer {
  const data = Buffer.concat(strings.map((s) => Buffer.concat([Buffer.from([Buffer.byteLength(s)]), Buffer.from(s)])));
  const head = Buffer.alloc(12);
  head.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
  head.writeUInt16BE(16, 2); // TXT
  head.writeUInt16BE(1, 4); // IN
  head.writeUInt32BE(60, 6);
  head.writeUInt16BE(data.length, 10);
  return Buffer.concat([head, data]);
}

/** Starts the server answering `txt` (name → its TXT records, each a list of strings). */
export async function startTestDns(txt: Record<string, string[][]>): Promise<TestDns> {
  const socket = createSocket('udp4');
  const asked: string[] = [];
  socket.on('message', (msg, from) => {
    const q = msg.length >= 12 ? question(msg) : null;
    if (!q) return;
    asked.push(q.name);
    const records = txt[q.name];
    const answers = records && q.type === 16 ? records.map(txtRecord) : [];
    const head = Buffer.alloc(12);
    msg.copy(head, 0, 0, 2); // the query's id
    head.writeUInt16BE(0x8180 | (records ? 0 : 3), 2); // a response, recursion available; NXDOMAIN when unknown
    head.writeUInt16BE(1, 4);
    head.writeUInt16BE(answers.length, 6);
    socket.send(Buffer.concat([head, msg.subarray(12, q.end), ...answers]), from.port, from.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  return { address: `127.0.0.1:${port}`, asked, close: () => new Promise<void>((resolve) => socket.close(() => resolve())) };
}
