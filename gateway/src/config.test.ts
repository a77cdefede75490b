/**
 * The environment `npm start` reads (README's table): FULCRUM_AUTH_LIMITS overrides the login, signup and
 * token-guess limits by name, a value it cannot read stops the start with a message, and the override reaches the
 * limiter of a real gateway.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_AUTH_LIMITS } from '@fulcrum/schema';
import { configurationProblems, optionsFromEnv } from './config.js';
import { startTestGateway, type TestGateway } from './testing/harness.js';

const problemsOf = (env: NodeJS.ProcessEnv) => configurationProblems(optionsFromEnv(env));

describe('FULCRUM_AUTH_LIMITS', () => {
  it('unset keeps the published defaults', () => {
    expect(optionsFromEnv({}).authLimits).toBeUndefined();
    expect(problemsOf({})).toEqual([]);
  });

  it('reads name=number pairs, with spaces around them', () => {
    const options = optionsFromEnv({ FULCRUM_AUTH_LIMITS: 'signupsPerIp=100, windowSeconds = 60' });
    expect(options.authLimits).toEqual({ signupsPerIp: 100, windowSeconds: 60 });
    expect(configurationProblems(options)).toEqual([]);
  });

  it.each([
    'signupsPerIp=0',
    'signupsPerIp=-3',
    'signupsPerIp=2.5',
    'signupsPerIp=lots',
    'signupsPerIp',
    'signupsperip=5',
    'constructor=5',
    '__proto__=5',
    'a=1=2',
  ])('refuses %j with a message that says what it takes', (value) => {
    const problems = problemsOf({ FULCRUM_AUTH_LIMITS: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^FULCRUM_AUTH_LIMITS must be comma-separated name=number pairs/);
    for (const name of Object.keys(DEFAULT_AUTH_LIMITS)) expect(problems[0]).toContain(name);
  });

  it('any value either starts with whole limits of known names, or is refused with a message (never a crash)', () => {
    const names = [...Object.keys(DEFAULT_AUTH_LIMITS), 'other', '__proto__', ''];
    const pair = fc.tuple(fc.constantFrom(...names), fc.oneof(fc.nat({ max: 10_000 }).map(String), fc.string())).map(([n, v]) => `${n}=${v}`);
    fc.assert(
      fc.property(
        fc.oneof(
          fc.array(pair, { minLength: 1, maxLength: 5 }).map((pairs) => pairs.join(',')),
          fc.string(),
        ),
        (value) => {
          const options = optionsFromEnv({ FULCRUM_AUTH_LIMITS: value });
          const problems = configurationProblems(options);
          const limits = Object.entries(options.authLimits ?? {});
          const valid = limits.every(([name, amount]) => Object.hasOwn(DEFAULT_AUTH_LIMITS, name) && Number.isInteger(amount) && amount >= 1);
          expect(problems.length === 0).toBe(valid);
        },
      ),
      { numRuns: 300, seed: 20261126 },
    );
  });

  describe('on a running gateway', () => {
    let gw: TestGateway;
    afterAll(() => gw?.destroy());

    it('the override is the limit the gateway enforces (signups per address)', async () => {
      gw = await startTestGateway({ authLimits: optionsFromEnv({ FULCRUM_AUTH_LIMITS: 'signupsPerIp=2' }).authLimits });
      const signup = (i: number) => gw.client().post('/api/auth/signup', { email: `limits-${i}@example.com`, username: `limits${i}`, password: 'secret-pw' });
      expect((await signup(1)).status).toBe(200);
      expect((await signup(2)).status).toBe(200);
      const refused = await signup(3);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    });
  });
});
