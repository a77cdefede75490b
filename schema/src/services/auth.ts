import argon2 from 'argon2';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { AppError } from '../errors.js';
import { User } from '../entities/index.js';
import { MESSAGES, hasErrors, validateLogin, validateSignup, type FieldErrors } from '../validation/rules.js';
import type { ServiceContext } from './context.js';
import type { UserRecord } from '../records/index.js';
import { toUserRecord } from './users.js';
import { usernameKey } from '../text/usernames.js';
import { requireSession } from './apiTokens.js';

/** OWASP's argon2id minimum (m = 19 MiB, t = 2, p = 1). */
export const ARGON2_OPTIONS = { type: argon2.argon2id, memoryCost: 19 * 1024, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, ARGON2_OPTIONS);
}

/** Verifying against this when the email is unknown keeps a miss as slow as a wrong password. */
let dummyHash: Promise<string> | undefined;

export interface SignupArgs {
  email: unknown;
  username: unknown;
  password: unknown;
}
export interface LoginArgs {
  email: unknown;
  password: unknown;
}

function authError(fields: FieldErrors): AppError {
  return new AppError('LOGIN_FAILED', Object.values(fields)[0]?.[0] ?? 'Invalid credentials', { fields });
}

export async function signup(ctx: ServiceContext, args: SignupArgs): Promise<UserRecord> {
  requireSession(ctx);
  const fields = validateSignup(args);
  if (hasErrors(fields)) throw authError(fields);
  await ctx.deps.limiter.consumeSignup(ctx.clientIp);
  const email = String(args.email).trim().toLowerCase();
  const username = String(args.username).trim();
  // A name that looks like a taken one (case, invisible characters, confusable letters) is taken: usernames.ts.
  const key = usernameKey(username);
  const taken = await ctx.em.find(User, { $or: [{ email }, { usernameKey: key }] }, { fields: ['id', 'email', 'usernameKey'] });
  const conflicts: FieldErrors = {};
  if (taken.some((u) => u.email === email)) conflicts.email = [MESSAGES.emailInUse];
  if (taken.some((u) => u.usernameKey === key)) conflicts.username = [MESSAGES.usernameInUse];
  if (hasErrors(conflicts)) throw authError(conflicts);

  // The first account of an empty database (no demo seed) is the admin; every later sign-up is an agent.
  const role = (await ctx.em.count(User, {})) === 0 ? 'ADMIN' : 'AGENT';
  const user = ctx.em.create(User, { email, username, usernameKey: key, passwordHash: await hashPassword(String(args.password)), role, createdAt: new Date() });
  try {
    await ctx.em.flush();
  } catch (error) {
    // Two signups raced for the same email or look-alike username: the unique indexes decide
    // (users_username_unique, users_username_key_unique).
    if (error instanceof UniqueConstraintViolationException) {
      throw authError(String(error.message).includes('username') ? { username: [MESSAGES.usernameInUse] } : { email: [MESSAGES.emailInUse] });
    }
    throw error;
  }
  await switchSession(ctx, user.id);
  return toUserRecord(user);
}

/**
 * Login answers one message for an unknown email and a wrong password alike ("Email or password is
 * incorrect."), so it cannot be used to learn who has an account. Signup must still say "Email address is
 * already in use.", which is rate-limited per address. See docs/security.md.
 */
export async function login(ctx: ServiceContext, args: LoginArgs): Promise<UserRecord> {
  requireSession(ctx);
  const fields = validateLogin(args);
  if (hasErrors(fields)) throw authError(fields);
  const email = String(args.email).trim().toLowerCase();
  // Counted before the password is checked, so parallel guesses cannot slip past the limit.
  await ctx.deps.limiter.consumeLoginAttempt(email, ctx.clientIp);

  const user = await ctx.em.findOne(User, { email }, { populate: ['passwordHash'] });
  dummyHash ??= hashPassword('not-a-real-password');
  const ok = user ? await argon2.verify(user.passwordHash, String(args.password)) : (await argon2.verify(await dummyHash, String(args.password)), false);
  if (!user || !ok) throw authError({ password: [MESSAGES.loginFailed] });
  await ctx.deps.limiter.recordLoginSuccess(email, ctx.clientIp);
  await switchSession(ctx, user.id);
  return toUserRecord(user);
}

/**
 * Signs the caller in with a fresh session id. A session that was already signed in (another agent in the same
 * browser) ends: its websockets on every gateway close, so no tab keeps receiving the previous agent's events.
 */
async function switchSession(ctx: ServiceContext, userId: number): Promise<void> {
  const previous = ctx.session?.id;
  const announced = await ctx.session?.signIn(userId);
  if (previous && previous !== ctx.session?.id && !announced) ctx.deps.bus.publish('sessionEnded', { sid: previous });
}

export async function logout(ctx: ServiceContext): Promise<void> {
  requireSession(ctx);
  const sid = ctx.session?.id;
  const announced = await ctx.session?.signOut();
  if (sid && !announced) ctx.deps.bus.publish('sessionEnded', { sid });
}
