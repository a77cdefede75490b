import { AppError } from '../errors.js';
import { User } from '../entities/index.js';
import { requireViewer, type ServiceContext } from './context.js';
import type { UserRecord } from './records.js';

export function toUserRecord(user: Pick<User, 'id' | 'username' | 'email' | 'createdAt'>): UserRecord {
  return { id: user.id, username: user.username, email: user.email, createdAt: user.createdAt };
}

/** The signed-in agent, or UNAUTHENTICATED (also when the session outlived its user). */
export async function currentUser(ctx: ServiceContext): Promise<UserRecord> {
  const id = requireViewer(ctx);
  const user = await ctx.em.findOne(User, id);
  if (!user) throw AppError.unauthenticated();
  return toUserRecord(user);
}

/** Every agent, in id order: the message center's conversation picker. */
export async function listUsers(ctx: ServiceContext): Promise<UserRecord[]> {
  requireViewer(ctx);
  const users = await ctx.em.find(User, {}, { orderBy: { id: 'asc' } });
  return users.map(toUserRecord);
}

export async function usersByIds(ctx: ServiceContext, ids: readonly number[]): Promise<Map<number, UserRecord>> {
  const users = await ctx.em.find(User, { id: { $in: [...ids] } });
  return new Map(users.map((u) => [u.id, toUserRecord(u)]));
}
