import { Entity, OneToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { Ticket } from './Ticket.js';

/**
 * A ticket's image. The bytes live in the database beside the ticket (as Zammad does by default), so a ticket
 * and its image commit or fail together, any gateway can serve any image, and a backup holds everything.
 */
@Entity({ tableName: 'ticket_images' })
export class TicketImage {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @OneToOne(() => Ticket, { owner: true, fieldName: 'ticket_id', deleteRule: 'cascade', unique: 'ticket_images_ticket_id_unique' })
  ticket!: Ticket;

  /** Detected from the bytes, never from the upload's name or declared type. */
  @Property({ type: 'string', length: 32 })
  mimeType!: string;

  @Property({ type: 'integer' })
  byteSize!: number;

  @Property({ type: 'integer' })
  width!: number;

  @Property({ type: 'integer' })
  height!: number;

  @Property({ type: 'blob', lazy: true })
  data!: Buffer;

  @Property({ type: 'Date', onCreate: () => new Date() })
  createdAt: Date = new Date();
}
