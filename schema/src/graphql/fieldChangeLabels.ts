/**
 * The display words of a history line's values (`FieldChange.fromLabel` / `toLabel`), so a client can say "moved it to
 * Tier 1 and assigned it to Marnie" or "changed the priority from Low to Urgent": a team, agent, customer or macro by
 * its name (read per request through the batch loaders, one statement per kind for a whole page; a deleted record is
 * "#<id>"), an enum by the word the app shows (`Low`, `Open`), a title or description as itself. An image has no words
 * (null).
 */
import { FieldResolver, Resolver, Root, Ctx } from 'type-graphql';
import type { FieldChange as FieldChangeRecord } from '../services/changeLog.js';
import type { GraphQLContext } from './context.js';
import { FieldChange } from './timelineTypes.js';

/** The words the app shows for each status (the others' values are already words: `Low`, `Question`). */
export const STATUS_LABELS: Record<string, string> = { OPEN: 'Open', PENDING: 'Pending', SOLVED: 'Solved' };

type Named = { name: string } | { username: string } | null;
const nameOf = (record: Named, id: number) => (record ? ('username' in record ? record.username : record.name) : `#${id}`);

function label(change: FieldChangeRecord, value: string | null, { loaders }: GraphQLContext): string | null | Promise<string | null> {
  if (value === null) return null;
  const id = Number(value);
  const byName = (load: (id: number) => Promise<Named>) => (Number.isSafeInteger(id) && id > 0 ? load(id).then((r) => nameOf(r, id)) : value);
  switch (change.field) {
    case 'status':
      return STATUS_LABELS[value] ?? value;
    case 'requesterId':
      return byName((i) => loaders.customer.load(i));
    case 'macroId':
      return byName((i) => loaders.macro.load(i));
    case 'teamId':
      return byName((i) => loaders.team.load(i));
    case 'assigneeId':
      return byName((i) => loaders.user.load(i));
    case 'image':
      return null;
    default:
      return value;
  }
}

@Resolver(() => FieldChange)
export class FieldChangeLabelResolver {
  @FieldResolver(() => String, {
    nullable: true,
    description:
      'The value before in words: a team, agent, customer or macro by its name ("#<id>" once deleted), a status as the app shows it (Open, Pending, Solved), a type or priority as itself (Low, Urgent), a title or description as itself; null when it had none, and for an image.',
  })
  fromLabel(@Root() change: FieldChangeRecord, @Ctx() context: GraphQLContext) {
    return label(change, change.from, context);
  }

  @FieldResolver(() => String, { nullable: true, description: 'The value after in words, as `fromLabel`; null when it has none, and for an image.' })
  toLabel(@Root() change: FieldChangeRecord, @Ctx() context: GraphQLContext) {
    return label(change, change.to, context);
  }
}
