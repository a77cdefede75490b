/**
 * The environment `npm start` reads (README's table): FULCRUM_AUTH_LIMITS overrides the login, signup and
 * token-guess limits by name, a value it cannot read stops the start with a message, and the override reaches the
 * limiter of a real gateway.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_AUTH_LIMITS } from '@fulcrum/schema';
import { configurationProblems, optionsFromEnv } from './config.js';
import { parseListen } from './mail/smtpListener.js';
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

describe('mail settings (docs/email.md)', () => {
  it('reads SMTP_URL, FULCRUM_MAIL_FROM and FULCRUM_PUBLIC_URL; unset, mail is not configured', () => {
    expect(optionsFromEnv({}).mail).toEqual({ smtpUrl: undefined, from: undefined, publicUrl: undefined, retryDelaysMs: undefined, pollMs: undefined });
    const options = optionsFromEnv({
      SMTP_URL: 'smtp://127.0.0.1:2525',
      FULCRUM_MAIL_FROM: 'Help <help@example.com>',
      FULCRUM_PUBLIC_URL: 'https://help.example.com',
    });
    expect(options.mail).toMatchObject({ smtpUrl: 'smtp://127.0.0.1:2525', from: 'Help <help@example.com>', publicUrl: 'https://help.example.com' });
    expect(configurationProblems(options)).toEqual([]);
  });

  it('any SMTP_URL or FULCRUM_PUBLIC_URL is either accepted or refused with a message (never a crash)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.webUrl()), fc.oneof(fc.string(), fc.webUrl()), (smtpUrl, publicUrl) => {
        const problems = configurationProblems({ mail: { smtpUrl: smtpUrl || undefined, publicUrl: publicUrl || undefined } });
        const smtpOk = !smtpUrl || /^smtps?:\/\/[^/\s]+/i.test(smtpUrl);
        const publicOk = !publicUrl || /^https?:\/\/[^/\s]+/i.test(publicUrl);
        expect(problems.some((p) => p.startsWith('SMTP_URL'))).toBe(!smtpOk);
        expect(problems.some((p) => p.startsWith('FULCRUM_PUBLIC_URL'))).toBe(!publicOk);
      }),
      { numRuns: 300 },
    );
    expect(configurationProblems({ mail: { smtpUrl: 'http://mail.example.com' } })[0]).toMatch(/^SMTP_URL must be/);
  });
});

describe('incoming mail settings (docs/email.md, Incoming mail)', () => {
  it('reads FULCRUM_SMTP_LISTEN and its companions; the listener needs an agent or a team for new addresses', () => {
    expect(optionsFromEnv({}).incomingMail?.listen).toBeUndefined();
    const env = {
      FULCRUM_SMTP_LISTEN: '127.0.0.1:2525',
      FULCRUM_MAIL_MAX_BYTES: '1048576',
      FULCRUM_SMTP_TRUSTED_RELAYS: '127.0.0.1, ::1',
      FULCRUM_MAIL_DEFAULT_AGENT: 'demo@fulcrum.app',
    };
    expect(optionsFromEnv(env).incomingMail).toMatchObject({
      listen: '127.0.0.1:2525',
      maxBytes: 1048576,
      trustedRelays: ['127.0.0.1', '::1'],
      defaultAgent: 'demo@fulcrum.app',
    });
    expect(problemsOf(env)).toEqual([]);
    expect(problemsOf({ FULCRUM_SMTP_LISTEN: '127.0.0.1:2525', FULCRUM_MAIL_DEFAULT_TEAM: 'Support' })).toEqual([]);
    expect(problemsOf({ FULCRUM_SMTP_LISTEN: '127.0.0.1:2525' })[0]).toMatch(/FULCRUM_MAIL_DEFAULT_AGENT/);
    expect(problemsOf({ ...env, FULCRUM_SMTP_TRUSTED_RELAYS: 'mx.example.com' })[0]).toMatch(/^FULCRUM_SMTP_TRUSTED_RELAYS must be/);
    expect(problemsOf({ ...env, FULCRUM_MAIL_MAX_BYTES: '25MB' })[0]).toMatch(/^FULCRUM_MAIL_MAX_BYTES must be/);
  });

  it('any FULCRUM_SMTP_LISTEN is either accepted or refused with a message (never a crash)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.tuple(fc.ipV4(), fc.integer({ min: 0, max: 99999 })).map(([h, p]) => `${h}:${p}`),
        ),
        (listen) => {
          const problems = configurationProblems({ incomingMail: { listen: listen || undefined, defaultAgent: 'a@b.test' } });
          expect(Array.isArray(problems)).toBe(true);
          if (problems.length) expect(problems[0]).toMatch(/^FULCRUM_SMTP_LISTEN must be host:port/);
          else if (listen) expect(parseListen(listen)?.port).toBeLessThanOrEqual(65535);
        },
      ),
      { numRuns: 300 },
    );
    expect(configurationProblems({ incomingMail: { listen: '2525', defaultAgent: 'a@b.test' } })[0]).toMatch(/^FULCRUM_SMTP_LISTEN must be/);
  });
});
