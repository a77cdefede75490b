import { Entity, ManyToOne, PrimaryKey, Property, Unique, type Opt } from '@mikro-orm/core';
import { User } from './User.js';

/** A team of agents: its tickets are readable by every member (services/ticketAccess.ts). */
@Entity({ tableName: 'teams' })
export class Team {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @Property({ type: 'string', length: 50, unique: 'teams_name_unique' })
  name!: string;

  /** New unassigned tickets of the team go to its least-loaded member online (services/autoAssign.ts). */
  @Property({ type: 'boolean', default: false })
  autoAssign: Opt<boolean> = false;

  @Property({ type: 'Date', onCreate: () => new Date() })
  createdAt: Date = new Date();
}

/** One agent's membership of one team. */
@Entity({ tableName: 'team_members' })
@Unique({ name: 'team_members_team_id_user_id_unique', properties: ['team', 'user'] })
export class TeamMember {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne(() => Team, { fieldName: 'team_id', deleteRule: 'cascade', index: false })
  team!: Team;

  @ManyToOne(() => User, { fieldName: 'user_id', deleteRule: 'cascade', index: 'team_members_user_id_index' })
  user!: User;

  @Property({ type: 'Date', onCreate: () => new Date() })
  createdAt: Date = new Date();
}
