import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { User } from './User.js';

@Entity({ tableName: 'messages' })
/**
 * A conversation is read by (sender, receiver) in both directions, newest first: (sender_id, receiver_id, id)
 * serves a page of it, its last message and the unread count past a read position without touching the table.
 */
@Index({ name: 'messages_sender_receiver_id_index', properties: ['sender', 'receiver', 'id'] })
export class Message {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  // No single-column index: messages_sender_receiver_id_index leads with sender_id.
  @ManyToOne(() => User, { fieldName: 'sender_id', deleteRule: 'restrict', index: false })
  sender!: User;

  @ManyToOne(() => User, { fieldName: 'receiver_id', deleteRule: 'restrict', index: 'messages_receiver_id_index' })
  receiver!: User;

  @Property({ type: 'text', fieldName: 'message' })
  text!: string;

  @Property({ type: 'Date', onCreate: () => new Date() })
  createdAt: Date = new Date();

  @Property({ type: 'Date', onCreate: () => new Date(), onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
