/**
 * Look-alike agent names: a username that differs from a taken one only by case, compatibility forms,
 * invisible characters or confusable letters is answered exactly as a taken username (REST: 401
 * `{"username": ["Username is already in use."]}`; GraphQL: the same field error), on both doors; and accounts that
 * already looked alike before the rule keep working after the migration.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { User, rules, usernameKey, type Em } from '@fulcrum/schema';
import { startTestGateway, type TestGateway } from '../../src/testing/harness.js';
import type { TestClient } from '../../src/testing/client.js';
import { figure } from '../../src/testing/measure.js';

const { MESSAGES } = rules;
const SIGNUP = 'mutation($input: SignupInput!) { signup(input: $input) { id username } }';

/** Invisible characters: zero-width, joiners, word joiner, BOM, soft hyphen, bidi marks, embeddings, isolates, CGJ, variation selector. */
const INVISIBLES = [
  '\u200b',
  '\u200c',
  '\u200d',
  '\u2060',
  '\ufeff',
  '\u00ad',
  '\u200e',
  '\u200f',
  '\u061c',
  '\u202a',
  '\u202b',
  '\u202c',
  '\u202d',
  '\u202e',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
  '\u034f',
  '\ufe0f',
  '\u180e',
];
/** Latin letters and look-alikes from other scripts (Cyrillic, Greek, fullwidth), both cases. */
const CONFUSABLE: Record<string, string[]> = {
  a: ['\u0430', '\uff41'],
  e: ['\u0435', '\uff45'],
  o: ['\u043e', '\u03bf', '0'],
  i: ['\u0456', '\u0131'],
  r: ['\uff52'],
  n: ['\uff4e'],
  b: ['\uff42'],
  m: ['rn', '\uff4d'],
  B: ['\u0412', '\u0392'],
  M: ['\u041c', '\u039c'],
  D: ['\u15ea', '\uff24'],
  I: ['\u0406', 'l'],
};

let gw: TestGateway;
let seq = 0;
const email = () => `lookalike-${Date.now()}-${++seq}@example.com`;

async function restSignup(client: TestClient, username: string) {
  return client.post('/api/auth/signup', { email: email(), username, password: 'secret-pass' });
}
async function gqlSignup(client: TestClient, username: string) {
  return client.gql(SIGNUP, { input: { email: email(), username, password: 'secret-pass' } });
}

describe('look-alike usernames', () => {
  beforeAll(async () => (gw = await startTestGateway()));
  afterAll(() => gw.destroy());

  it('the examples of the issue are refused exactly as the taken name itself, on REST and GraphQL', async () => {
    const takenRest = await restSignup(gw.client(), 'Demo');
    const takenGql = await gqlSignup(gw.client(), 'Demo');
    expect(takenRest.status).toBe(401);
    expect(takenRest.body).toEqual({ username: [MESSAGES.usernameInUse] });
    expect(takenGql.errors?.[0]?.extensions).toMatchObject({ fields: { username: [MESSAGES.usernameInUse] } });
    const users = await gw.orm.em.fork().count(User, {});
    for (const name of ['demo', 'DEMO', 'D\u0435mo', 'Demo\u200b', '\u200bD\u200de\u2060m\u00ado', 'Ｄｅｍｏ', 'D\u202eemo', 'Dern\u043e', 'ᗪemo', ' dEmO ']) {
      const rest = await restSignup(gw.client(), name);
      expect({ status: rest.status, body: rest.body }, JSON.stringify(name)).toEqual({ status: takenRest.status, body: takenRest.body });
      const gql = await gqlSignup(gw.client(), name);
      expect({ status: gql.status, errors: gql.errors, data: gql.data }, JSON.stringify(name)).toEqual({
        status: takenGql.status,
        errors: takenGql.errors,
        data: takenGql.data,
      });
    }
    expect(await gw.orm.em.fork().count(User, {})).toBe(users);
    // A name that only shares letters is not a look-alike.
    expect((await restSignup(gw.client(), 'Demos')).status).toBe(200);
    expect((await gqlSignup(gw.client(), 'Demolition')).data?.signup.username).toBe('Demolition');
  });

  it('property: any case, invisible-character or confusable-letter variation of an existing name is refused', async () => {
    const bases = ['Marnie', 'Bobbie', 'Demo', 'Ian Moberg'];
    let tried = 0;
    const variant = fc
      .tuple(
        fc.constantFrom(...bases),
        fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
        fc.array(fc.nat(100), { minLength: 12, maxLength: 12 }),
        fc.array(fc.constantFrom(...INVISIBLES), { minLength: 0, maxLength: 4 }),
        fc.nat(),
      )
      .map(([base, flips, swaps, invisibles, at]) => {
        let name = [...base]
          .map((c, i) => {
            const cased = flips[i] ? (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) : c;
            const options = CONFUSABLE[cased];
            return options && swaps[i] % 3 === 0 ? options[swaps[i] % options.length] : cased;
          })
          .join('');
        for (const [k, mark] of invisibles.entries()) {
          const p = (at + k * 7) % (name.length + 1);
          name = name.slice(0, p) + mark + name.slice(p);
        }
        return name;
      })
      .filter((name) => name.length <= 30);
    // Ian Moberg signs up first (the demo seed has the other three).
    expect((await restSignup(gw.client(), 'Ian Moberg')).status).toBe(200);
    const users = await gw.orm.em.fork().count(User, {});
    await fc.assert(
      fc.asyncProperty(variant, fc.boolean(), async (name, viaGraphql) => {
        tried++;
        if (viaGraphql) {
          const r = await gqlSignup(gw.client(), name);
          expect(r.data, JSON.stringify(name)).toBeFalsy();
          expect(r.errors?.[0]?.extensions?.fields, JSON.stringify(name)).toEqual({ username: [MESSAGES.usernameInUse] });
        } else {
          const r = await restSignup(gw.client(), name);
          expect({ status: r.status, body: r.body }, JSON.stringify(name)).toEqual({ status: 401, body: { username: [MESSAGES.usernameInUse] } });
        }
      }),
      { numRuns: 120, seed: 22 },
    );
    expect(await gw.orm.em.fork().count(User, {})).toBe(users);
    figure(
      'look-alike names',
      `${tried} case, invisible-character and confusable variants of 4 taken names: ${tried} refused as taken (REST and GraphQL), 0 accounts created`,
    );
  });

  it('two racing look-alike signups: one account', async () => {
    const answers = await Promise.all(['Racer Q', 'racer q', 'RACER Q', 'Rаcer Q', 'Racer\u200b Q'].map((name) => restSignup(gw.client(), name)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 401, 401, 401, 401]);
    expect(await gw.orm.em.fork().count(User, { usernameKey: usernameKey('Racer Q') })).toBe(1);
  });
});

describe('accounts that looked alike before the rule', () => {
  let old: TestGateway;
  afterAll(() => old?.destroy());

  it('keep signing in after the migration, while a new look-alike is refused', async () => {
    const first = await startTestGateway();
    // Back to the schema before the rule, and the look-alikes of the issue created the way sign-up allowed then.
    await first.orm.getMigrator().down({ to: 'Migration20261126120000UsernameKeys' });
    const conn = (first.orm.em as Em).getConnection();
    const names = ['demo', 'DEMO', 'D\u0435mo', 'Demo\u200b'];
    for (const [i, name] of names.entries()) {
      await conn.execute('insert into users (username, email, password_hash, created_at) select ?, ?, password_hash, created_at from users where id = 1', [
        name,
        `old-lookalike-${i}@example.com`,
      ]);
    }
    old = await first.restart();
    const rows = await (old.orm.em as Em)
      .getConnection()
      .execute<{ id: number; username: string; username_key: string; username_key_dup: number }[]>(
        'select id, username, username_key, username_key_dup from users where username_key = ? order by id',
        [usernameKey('Demo')],
      );
    expect(rows.map((r) => r.username)).toEqual(['Demo', ...names]);
    expect(rows.map((r) => Number(r.username_key_dup))).toEqual([0, ...rows.slice(1).map((r) => Number(r.id))]);
    for (const [i, name] of names.entries()) {
      const client = await old.client().login(`old-lookalike-${i}@example.com`, 'fulcrum-demo');
      expect((await client.get('/api/auth/')).body.username).toBe(name);
      expect((await client.gql('{ me { username } }')).data?.me.username).toBe(name);
    }
    expect((await (await old.as(0)).gql('{ me { username } }')).data?.me.username).toBe('Demo');
    expect((await restSignup(old.client(), 'dEMO')).body).toEqual({ username: [MESSAGES.usernameInUse] });
    expect((await gqlSignup(old.client(), 'De\u200bmo')).errors?.[0]?.extensions?.fields).toEqual({ username: [MESSAGES.usernameInUse] });
  });
});
