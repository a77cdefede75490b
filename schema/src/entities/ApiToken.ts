import { Entity, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { User } from './User.js';

/**
 * A personal access token (services/apiTokens.ts). Only the SHA-256 of the secret is stored: the secret carries
 * 190 random bits, so a fast hash is enough (no salt or slow hash is needed against guessing), and a lookup by
 * hash is one indexed read. Deleting the agent deletes their tokens (a token never outlives its account).
 */
@Entity({ tableName: 'api_tokens' })
export class ApiToken {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne(() => User, { fieldName: 'user_id', deleteRule: 'cascade', index: 'api_tokens_user_id_index' })
  user!: User;

  @Property({ type: 'string', length: 50 })
  name!: string;

  /** Comma-separated ApiScope names, e.g. "READ,WRITE". */
  @Property({ type: 'string', length: 32 })
  scopes!: string;

  /** Hex SHA-256 of the whole secret; never leaves the service layer. */
  @Property({ type: 'string', length: 64, unique: 'api_tokens_token_hash_unique', hidden: true })
  tokenHash!: string;

  /** The secret's last 4 characters, so the agent can tell tokens apart. */
  @Property({ type: 'string', length: 4 })
  hint!: string;

  @Property({ type: 'Date', onCreate: () => new Date() })
  createdAt: Date = new Date();

  @Property({ type: 'Date' })
  expiresAt!: Date;

  @Property({ type: 'Date', nullable: true })
  lastUsedAt?: Date | null;

  @Property({ type: 'Date', nullable: true })
  revokedAt?: Date | null;
}
