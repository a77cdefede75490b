import { AppError } from '../errors.js';
import { User } from '../entities/index.js';
import { anyOfIds, preparedRead } from '../database.js';
import { requireViewer, type ServiceContext } from './context.js';
import { keysetPage, type Page, type PageArgs } from './connection.js';
import { toDate, type UserRecord } from '../records/index.js';

export function toUserRecord(user: Pick<User, 'id' | 'username' | 'email' | 'createdAt'> & { role?: User['role'] }): UserRecord {
  return { id: user.id, username: user.username, email: user.email, createdAt: user.createdAt, ...(user.role ? { role: user.role } : {}) };
}

/**
 * A user's record straight from its row, through a statement prepared once (database.ts preparedRead): every page that
 * shows agents (a timeline's authors and actors, a ticket's assignee, `me`) reads them here, without the ORM's
 * query building and entities (on PostgreSQL about a millisecond per read).
 */
const USER_COLUMNS = 'id, username, email, role, created_at';
export interface UserRow {
  id: number | string;
  username: string;
  email: string;
  role: User['role'];
  created_at: unknown;
}
export const userOfRow = (r: UserRow): UserRecord => ({
  id: Number(r.id),
  username: r.username,
  email: r.email,
  createdAt: toDate(r.created_at),
  role: r.role,
});

/** The signed-in agent, or UNAUTHENTICATED (also when the session outlived its user). */
export async function currentUser(ctx: ServiceContext): Promise<UserRecord> {
  const id = requireViewer(ctx);
  const [row] = await preparedRead<UserRow>(ctx.em, 'user_by_id', `select ${USER_COLUMNS} from users where id = ?`, [id]);
  if (!row) throw AppError.unauthenticated();
  return userOfRow(row);
}

/** One page of the agents, in id order (oldest account first): the message center's conversation picker. */
export async function listUsersPage(ctx: ServiceContext, args: PageArgs = {}): Promise<Page<UserRecord>> {
  requireViewer(ctx);
  const knex = ctx.em.getKnex();
  return keysetPage<UserRow, UserRecord>(
    ctx,
    {
      kind: 'user',
      idColumn: 'id',
      order: 'asc',
      query: () => knex.from('users').select('id', 'username', 'email', 'created_at', 'role'),
      toRecord: userOfRow,
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

/** The users of these ids (any number of them, one fixed statement: the ids as one array parameter). */
export async function usersByIds(ctx: ServiceContext, ids: readonly number[]): Promise<Map<number, UserRecord>> {
  const any = anyOfIds(ctx.em, ids);
  if (!any) return new Map();
  const rows = await preparedRead<UserRow>(ctx.em, 'users_by_ids', `select ${USER_COLUMNS} from users where id ${any.sql}`, [any.binding]);
  return new Map(rows.map((r) => [Number(r.id), userOfRow(r)]));
}
