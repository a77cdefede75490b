/**
 * One row of the job table (jobs/index.ts): a piece of background work of some kind, named by a key unique within its
 * kind (so enqueueing it twice is enqueueing it once), due at a time, with its payload as JSON text. Its life:
 * pending → running (claimed, under a lease) → done, back to pending (a retry at a later time) or failed. While
 * running, dueAt is the lease's end (see jobs/claim.ts): a lease that runs out makes the row due again.
 */
import { Entity, Index, PrimaryKey, Property, Unique, type Opt } from '@mikro-orm/core';

export type JobState = 'pending' | 'running' | 'done' | 'failed';

@Entity({ tableName: 'jobs' })
@Unique({ name: 'jobs_kind_key_unique', properties: ['kind', 'key'] })
@Index({ name: 'jobs_state_due_at_index', properties: ['state', 'dueAt'] })
export class Job {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @Property({ type: 'string', length: 64 })
  kind!: string;

  @Property({ type: 'string', length: 255 })
  key!: string;

  @Property({ type: 'Date' })
  dueAt!: Date;

  /** JSON text. */
  @Property({ type: 'text' })
  payload!: string;

  @Property({ type: 'string', length: 16 })
  state!: JobState;

  @Property({ type: 'integer' })
  attempts!: number;

  @Property({ type: 'Date', nullable: true })
  leaseUntil?: Date | null;

  @Property({ type: 'text', nullable: true })
  lastError?: string | null;

  @Property({ type: 'Date' })
  createdAt: Opt<Date> = new Date();

  @Property({ type: 'Date' })
  updatedAt: Opt<Date> = new Date();
}
