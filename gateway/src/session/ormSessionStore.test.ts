/** The session store on a real SQLite file: lean reads, and rolling expiry written at most once a minute. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type session from 'express-session';
import { forkEm, openDatabase, Session, type Orm } from '@fulcrum/schema';
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
});
