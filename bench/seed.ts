/**
 * Fast seeding straight into the SQLite file of a stopped gateway (after its migrations and demo seed ran):
 * prepared statements in large transactions, never one request per row.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import signature from 'cookie-signature';
import argon2 from 'argon2';
import { progress } from './lib.js';
import { usernameKey } from '@fulcrum/schema';
import type { SeededTicket } from './scenarios/triage.js';

export type Db = Database.Database;

export function openDb(dataDir: string): Db {
  const db = new Database(join(dataDir, 'fulcrum.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  db.pragma('foreign_keys = ON');
  return db;
}

/** A 1x1 PNG: the dashboard reads image metadata only, so scale rows carry the smallest valid image. */
export const TINY_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
export const BENCH_PASSWORD = 'bench-password';

let hash: Promise<string> | undefined;
/** One real argon2id hash shared by every bench agent (hashing is deliberately slow: once is enough). */
export function passwordHash(): Promise<string> {
  hash ??= argon2.hash(BENCH_PASSWORD, { type: argon2.argon2id, memoryCost: 19 * 1024, timeCost: 2, parallelism: 1 });
  return hash;
}

/** Adds `count` agents named `${prefix}0001...`; returns their ids. */
export async function addAgents(db: Db, prefix: string, count: number): Promise<number[]> {
  const h = await passwordHash();
  const insert = db.prepare('insert into users (username, username_key, email, password_hash, created_at) values (?, ?, ?, ?, ?)');
  const ids: number[] = [];
  db.transaction(() => {
    for (let i = 1; i <= count; i++) {
      const name = `${prefix}${String(i).padStart(4, '0')}`;
      ids.push(Number(insert.run(name, usernameKey(name), `${name}@bench.fulcrum.test`, h, Date.now()).lastInsertRowid));
    }
  })();
  return ids;
}

export function addCustomers(db: Db, ownerIds: number[], count: number): number[] {
  const insert = db.prepare('insert into customers (name, email, owner_id, created_at) values (?, ?, ?, ?)');
  const ids: number[] = [];
  db.transaction(() => {
    for (let i = 0; i < count; i++)
      ids.push(
        Number(
          insert.run(`Bench Customer ${i}`, `bench.customer.${i}.${randomBytes(3).toString('hex')}@example.com`, ownerIds[i % ownerIds.length], Date.now())
            .lastInsertRowid,
        ),
      );
  })();
  return ids;
}

/**
 * Signed-in sessions written as express-session stores them (rows of the `sessions` table, JSON data, signed
 * cookie), for agents that would otherwise each need an argon2 login: the 1,000-subscriber scenario.
 */
export function forgeSessions(db: Db, userIds: number[], secret: string): Map<number, string> {
  const insert = db.prepare('insert into sessions (sid, data, user_id, expires_at) values (?, ?, ?, ?)');
  const cookies = new Map<number, string>();
  db.transaction(() => {
    for (const userId of userIds) {
      const session = forgedSession(userId, secret);
      insert.run(session.sid, session.data, userId, session.expires.getTime());
      cookies.set(userId, session.cookie);
    }
  })();
  return cookies;
}

/** One signed-in session of `userId` as express-session stores it (a `sessions` row) and its signed cookie. */
export function forgedSession(userId: number, secret: string): { sid: string; data: string; expires: Date; cookie: string } {
  const maxAge = 12 * 60 * 60 * 1000;
  const sid = randomBytes(24).toString('base64url');
  const expires = new Date(Date.now() + maxAge);
  const data = {
    cookie: { originalMaxAge: maxAge, expires: expires.toISOString(), secure: false, httpOnly: true, path: '/', sameSite: 'lax' },
    userId,
    signedInAt: Date.now(),
  };
  return { sid, data: JSON.stringify(data), expires, cookie: `fulcrum.sid=${encodeURIComponent(`s:${signature.sign(sid, secret)}`)}` };
}

const TYPES = ['Question', 'Incident', 'Problem', 'Task'];
const PRIORITIES = ['Low', 'Medium', 'High', 'Urgent'];

/** A small deterministic PRNG (mulberry32), so every run seeds the same table. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface TicketBatch {
  /** The agent of each new ticket, in insertion order (shuffle it to interleave agents as real traffic does). */
  assignees: Int32Array | number[];
  requesterIds: number[];
  macroIds: number[];
  /** Image rows: `tiny` (1x1 PNG, metadata only matters) or a real image copied from the demo seed. */
  image?: { data: Buffer; mimeType: string; width: number; height: number };
  label: string;
  /** Title, description, status, type and priority of ticket `i` (bench/scenarios/triage.ts); default: fixed text, OPEN. */
  fields?: (i: number) => SeededTicket;
}

/** Inserts tickets (each with its image row) in transactions of 20,000 rows, with a progress line. */
export function addTickets(db: Db, batch: TicketBatch): void {
  const image = batch.image ?? { data: TINY_PNG, mimeType: 'image/png', width: 1, height: 1 };
  const ticket = db.prepare(
    'insert into tickets (title, type, priority, status, assignee_id, requester_id, macro_id, description, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const img = db.prepare('insert into ticket_images (ticket_id, mime_type, byte_size, width, height, data, created_at) values (?, ?, ?, ?, ?, ?, ?)');
  const total = batch.assignees.length;
  const chunk = 20_000;
  const started = performance.now();
  const base = Date.now() - total * 1000;
  for (let from = 0; from < total; from += chunk) {
    db.transaction(() => {
      for (let i = from; i < Math.min(total, from + chunk); i++) {
        const at = base + i * 1000;
        const f = batch.fields?.(i) ?? {
          title: `Bench ticket ${i}`,
          type: TYPES[i % 4],
          priority: PRIORITIES[(i * 3) % 4],
          status: 'OPEN',
          description: `Seeded for the benchmark, row ${i}: the printer shows an error after the update.`,
        };
        // The triggers of migration 20261123140000 keep ticket_counts and the ticket_search index in step.
        const id = ticket.run(
          f.title,
          f.type,
          f.priority,
          f.status,
          batch.assignees[i],
          batch.requesterIds[i % batch.requesterIds.length],
          batch.macroIds[i % batch.macroIds.length],
          f.description,
          at,
          at,
        ).lastInsertRowid;
        img.run(id, image.mimeType, image.data.length, image.width, image.height, image.data, at);
      }
    })();
    const done = Math.min(total, from + chunk);
    const secs = (performance.now() - started) / 1000;
    progress(
      `  seeding ${batch.label}: ${done.toLocaleString('en-US')} / ${total.toLocaleString('en-US')} tickets (${Math.round(done / Math.max(secs, 0.001)).toLocaleString('en-US')} rows/s)`,
    );
  }
}

export function shuffle<T>(array: T[] | Int32Array, random: () => number): void {
  for (let i = array.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const t = array[i];
    array[i] = array[j];
    array[j] = t;
  }
}

export function count(db: Db, sql: string, ...params: unknown[]): number {
  return Number((db.prepare(sql).get(...params) as { n: number }).n);
}
