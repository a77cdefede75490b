import { Entity, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { User } from './User.js';

/** A canned-reply option. Macro 1 ("No Macro") is built in: no owner, visible to all, permanent. */
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

  @Property({ type: 'Date', onCreate: () => new Date() })
  createdAt: Date = new Date();
}
