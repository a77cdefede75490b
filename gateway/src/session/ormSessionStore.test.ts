/** The session store on a real SQLite file: lean reads, and rolling expiry written at most once a minute. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type session from 'express-session';
import { createEventBus, forkEm, openDatabase, Session, type Orm } from '@fulcrum/schema';
import { OrmSessionStore } from './ormSessionStore.js';

let orm: Orm;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fulcrum-store-'));
  orm = await openDatabase({ dataDir: dir });
});
afterAll(async () => {
  await orm.close(true);
  rmSync(dir, { recursive: true, force: true });
});

const call = <T>(fn: (cb: (err?: unknown, value?: T) => void) => void) =>
  new Promise<T | undefined>((resolve, reject) =>
    fn((err, value) => (err ? reject(err instanceof Error ? err : new Error('session store failed', { cause: err })) : resolve(value))),
  );
const data = (expiresInMs: number) =>
  ({ cookie: { expires: new Date(Date.now() + expiresInMs), originalMaxAge: expiresInMs }, userId: 1 }) as unknown as session.SessionData;
const storedExpiry = async (sid: string) => (await forkEm(orm).findOneOrFail(Session, { sid })).expiresAt.getTime();

describe('OrmSessionStore', () => {
  it('reads back what it stored, and forgets expired or destroyed sessions', async () => {
    const store = new OrmSessionStore(orm, 60_000);
    await call<void>((cb) => store.set('a', data(60_000), cb));
    expect(await call<session.SessionData | null>((cb) => store.get('a', cb))).toMatchObject({ userId: 1 });
    await call<void>((cb) => store.set('old', data(-1000), cb));
    expect(await call<session.SessionData | null>((cb) => store.get('old', cb))).toBeNull();
    await call<void>((cb) => store.destroy('a', cb));
    expect(await call<session.SessionData | null>((cb) => store.get('a', cb))).toBeNull();
  });

  it('writes a rolling expiry back only when it moved by a minute or more', async () => {
    const store = new OrmSessionStore(orm, 60_000);
    await call<void>((cb) => store.set('b', data(3_600_000), cb));
    const first = await storedExpiry('b');
    await call<void>((cb) => store.touch('b', data(3_600_000 + 30_000), cb)); // 30 s later: skipped
    expect(await storedExpiry('b')).toBe(first);
    await call<void>((cb) => store.touch('b', data(3_600_000 + 90_000), cb)); // 90 s later: written
    expect(await storedExpiry('b')).toBeGreaterThanOrEqual(first + 89_000);
    // A second gateway (another store) has no memory of the write, so it writes: correctness never depends on it.
    const other = new OrmSessionStore(orm, 60_000);
    await call<void>((cb) => other.touch('b', data(3_600_000 + 100_000), cb));
    expect(await storedExpiry('b')).toBeGreaterThanOrEqual(first + 99_000);
  });

  it('a renewal asked while the same one is being written is not written again', async () => {
    const store = new OrmSessionStore(orm, 60_000);
    await call<void>((cb) => store.set('renewing', data(3_600_000), cb));
    const later = Date.now() + 3_600_000 + 120_000;
    const written = call<void>((cb) => store.renew('renewing', new Date(later), cb));
    // A write calls back once the database answered; a skipped renewal at once.
    let skipped = false;
    store.renew('renewing', new Date(later + 1000), () => (skipped = true));
    expect(skipped).toBe(true);
    await written;
    expect(await storedExpiry('renewing')).toBe(later);
  });

  it('answers a cached session without the database, and never past its expiry', async () => {
    const store = new OrmSessionStore(orm, 60_000);
    await call<void>((cb) => store.set('c', data(300), cb));
    expect(await call<session.SessionData | null>((cb) => store.get('c', cb))).toMatchObject({ userId: 1 }); // read: now cached
    // The row is gone behind the store's back (no event): the cache still answers, within its TTL...
    await forkEm(orm).nativeDelete(Session, { sid: 'c' });
    expect(await call<session.SessionData | null>((cb) => store.get('c', cb))).toMatchObject({ userId: 1 });
    // ...but not once the session's own expiry has passed: then the database decides (and has no row).
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(await call<session.SessionData | null>((cb) => store.get('c', cb))).toBeNull();
  });

  it('gives every request its own copy of the session (express-session changes the object it gets)', async () => {
    const store = new OrmSessionStore(orm, 60_000);
    await call<void>((cb) => store.set('d', data(60_000), cb));
    const first = (await call<session.SessionData | null>((cb) => store.get('d', cb)))!;
    first.userId = 99;
    expect(await call<session.SessionData | null>((cb) => store.get('d', cb))).toMatchObject({ userId: 1 });
  });

  it('a session destroyed through one store is gone from every store on the bus at once', async () => {
    const events = await createEventBus({});
    const a = new OrmSessionStore(orm, 60_000, { bus: events.bus, shared: true });
    const b = new OrmSessionStore(orm, 60_000, { bus: events.bus, shared: true });
    try {
      await call<void>((cb) => a.set('e', data(60_000), cb));
      expect(await call<session.SessionData | null>((cb) => b.get('e', cb))).toMatchObject({ userId: 1 }); // cached by b
      await call<void>((cb) => a.destroy('e', cb));
      expect(await call<session.SessionData | null>((cb) => b.get('e', cb))).toBeNull();
      expect(await call<session.SessionData | null>((cb) => a.get('e', cb))).toBeNull();
    } finally {
      await a.dispose();
      await b.dispose();
      await events.close();
    }
  });
});
