import { Entity, Enum, ManyToOne, PrimaryKey, Property, type Opt } from '@mikro-orm/core';
import { MACRO_SHARINGS, type MacroSharing } from '../validation/rules.js';
import { Team } from './Team.js';
import { User } from './User.js';

/**
 * A canned-reply option. Macro 1 ("No Macro") is built in: no owner, visible to all, permanent. A macro is its
 * author's (PRIVATE), shared with one of the author's teams (TEAM, `team`) or with every agent (EVERYONE, set by an
 * admin); who may use, edit and delete each is decided in services/macros.ts.
 */
@Entity({ tableName: 'macros' })
export class Macro {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @Property({ type: 'string', length: 50 })
  name!: string;

  @Property({ type: 'text' })
  description!: string;

  @ManyToOne(() => User, { fieldName: 'owner_id', nullable: true, deleteRule: 'restrict', index: 'macros_owner_id_index' })
  owner?: User | null;

  @Enum({ items: () => [...MACRO_SHARINGS], type: 'string', length: 16, default: 'PRIVATE' })
  sharing: Opt<MacroSharing> = 'PRIVATE';

  /** The team a TEAM macro is shared with (null otherwise; a deleted team leaves its macros to their authors). */
  @ManyToOne(() => Team, { fieldName: 'team_id', nullable: true, deleteRule: 'set null', index: 'macros_team_id_index' })
  team?: Team | null;

  @Property({ type: 'Date', onCreate: () => new Date() })
  createdAt: Date = new Date();
}
