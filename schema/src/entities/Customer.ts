import { Entity, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { User } from './User.js';

/** The shared customer directory: every agent sees every customer; only the owner changes one. */
@Entity({ tableName: 'customers' })
export class Customer {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @Property({ type: 'string', length: 50 })
  name!: string;

  /** Stored lower-cased; unique across the directory ("Email Already Exists"). */
  @Property({ type: 'string', length: 255, unique: 'customers_email_unique' })
  email!: string;

  @ManyToOne(() => User, { fieldName: 'owner_id', deleteRule: 'restrict', index: 'customers_owner_id_index' })
  owner!: User;

  @Property({ type: 'Date', onCreate: () => new Date() })
  createdAt: Date = new Date();
}
