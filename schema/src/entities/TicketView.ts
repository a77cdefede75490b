import { Entity, ManyToOne, PrimaryKey, Property, type Opt } from '@mikro-orm/core';
import { Team } from './Team.js';
import { User } from './User.js';

/**
 * A saved view of tickets: a filter plus a scope (rules.VIEW_SCOPES), personal or shared. Its tickets and
 * count are always read through the access rule of whoever looks at it (services/views.ts); the defaults (My
 * tickets, each team's Unassigned and unsolved) are computed and have no row.
 */
@Entity({ tableName: 'ticket_views' })
export class TicketView {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @Property({ type: 'string', length: 50 })
  name!: string;

  @ManyToOne(() => User, { fieldName: 'owner_id', deleteRule: 'cascade', index: 'ticket_views_owner_id_index' })
  owner!: User;

  /** MINE, TEAM_UNASSIGNED, TEAM or ALL. */
  @Property({ type: 'string', length: 16 })
  scope!: string;

  @ManyToOne(() => Team, { fieldName: 'team_id', deleteRule: 'cascade', nullable: true, index: 'ticket_views_team_id_index' })
  team?: Team | null;

  /** Shared: visible to the team's members (team scopes) or to everyone (ALL, made by an admin). */
  @Property({ type: 'boolean', default: false })
  shared: Opt<boolean> = false;

  /** The filter as JSON (search, status, priority, type, requesterId), checked as a page checks it. */
  @Property({ type: 'text' })
  filter!: string;

  @Property({ type: 'Date', onCreate: () => new Date() })
  createdAt: Date = new Date();

  @Property({ type: 'Date', onCreate: () => new Date(), onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
