import { AppError } from '../errors.js';
import { User } from '../entities/index.js';
import { requireViewer, type ServiceContext } from './context.js';
import { keysetPage, type Page, type PageArgs } from './connection.js';
import { toDate, type UserRecord } from '../records/index.js';

export function toUserRecord(user: Pick<User, 'id' | 'username' | 'email' | 'createdAt'> & { role?: User['role'] }): UserRecord {
  return { id: user.id, username: user.username, email: user.email, createdAt: user.createdAt, ...(user.role ? { role: user.role } : {}) };
}

/** The signed-in agent, or UNAUTHENTICATED (also when the session outlived its user). */
export async function currentUser(ctx: ServiceContext): Promise<UserRecord> {
  const id = requireViewer(ctx);
  const user = await ctx.em.findOne(User, id);
  if (!user) throw AppError.unauthenticated();
  return toUserRecord(user);
}

/** One page of the agents, in id order (oldest account first): the message center's conversation picker. */
export async function listUsersPage(ctx: ServiceContext, args: PageArgs = {}): Promise<Page<UserRecord>> {
  requireViewer(ctx);
  const knex = ctx.em.getKnex();
  return keysetPage<{ id: number; username: string; email: string; created_at: unknown; role: 'ADMIN' | 'AGENT' }, UserRecord>(
    ctx,
    {
      kind: 'user',
      idColumn: 'id',
      order: 'asc',
      query: () => knex.from('users').select('id', 'username', 'email', 'created_at', 'role'),
      toRecord: (r) => ({ id: Number(r.id), username: r.username, email: r.email, createdAt: toDate(r.created_at), role: r.role }),
    },
    args,
  );
}

/** Every agent, in id order (the REST list, a bare array). */
export async function listUsers(ctx: ServiceContext): Promise<UserRecord[]> {
  requireViewer(ctx);
  const users = await ctx.em.find(User, {}, { orderBy: { id: 'asc' } });
  return users.map(toUserRecord);
}

export async function usersByIds(ctx: ServiceContext, ids: readonly number[]): Promise<Map<number, UserRecord>> {
  const users = await ctx.em.find(User, { id: { $in: [...ids] } });
  return new Map(users.map((u) => [u.id, toUserRecord(u)]));
}
