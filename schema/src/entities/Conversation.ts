import { Entity, Index, ManyToOne, Property } from '@mikro-orm/core';
import { User } from './User.js';

/**
 * One agent's side of a conversation with one partner: the summary the message center reads, kept exact in the
 * same transaction as every message write (services/conversations.ts). Two rows per pair of agents, one each.
 * It exists so `conversations` and `unreadMessageCount` read one row per partner instead of the messages table.
 *
 * - lastMessageId: the newest message between the two, either direction (null once all are deleted); its order
 *   is "newest activity first".
 * - lastReadMessageId: the read position; messages from the partner with a larger id are unread (0: none read).
 * - unreadCount: how many messages from the partner lie past the read position.
 */
@Entity({ tableName: 'conversations' })
@Index({ name: 'conversations_user_id_last_message_id_index', properties: ['user', 'lastMessageId'] })
export class Conversation {
  // The primary key (user_id, partner_id) serves the per-conversation reads; no single-column index on user_id.
  @ManyToOne(() => User, { primary: true, fieldName: 'user_id', deleteRule: 'cascade', index: false })
  user!: User;

  @ManyToOne(() => User, { primary: true, fieldName: 'partner_id', deleteRule: 'cascade', index: 'conversations_partner_id_index' })
  partner!: User;

  @Property({ type: 'integer', nullable: true })
  lastMessageId: number | null = null;

  @Property({ type: 'integer', default: 0 })
  lastReadMessageId: number = 0;

  @Property({ type: 'integer', default: 0 })
  unreadCount: number = 0;
}
