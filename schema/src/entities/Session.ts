import { Entity, PrimaryKey, Property } from '@mikro-orm/core';

/** express-session's server-side store (see gateway/src/session/ormSessionStore.ts). */
@Entity({ tableName: 'sessions' })
export class Session {
  @PrimaryKey({ type: 'text' })
  sid!: string;

  @Property({ type: 'text' })
  data!: string;

  @Property({ type: 'integer', nullable: true, index: 'sessions_user_id_index' })
  userId?: number | null;

  @Property({ type: 'Date', index: 'sessions_expires_at_index' })
  expiresAt!: Date;
}
