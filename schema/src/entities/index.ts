export { User } from './User.js';
export { Customer } from './Customer.js';
export { Macro } from './Macro.js';
export { Ticket } from './Ticket.js';
export { TicketImage } from './TicketImage.js';
export { Message } from './Message.js';
export { Session } from './Session.js';
export { Conversation } from './Conversation.js';
export { ApiToken } from './ApiToken.js';
export { Webhook, WebhookEvent, WebhookJob, WebhookDelivery } from './Webhook.js';
export { Team, TeamMember } from './Team.js';
export { TicketHistoryEvent, TicketNote, TicketNoteRevision } from './TicketTimeline.js';
export { TicketReply, RequesterMessage, RequesterLink, MailOutboxEntry, ReplyAttachment } from './RequesterReplies.js';
export { TicketView } from './TicketView.js';
export { IncomingMail } from './IncomingMail.js';
export { Job, type JobState } from './Job.js';

import { User } from './User.js';
import { Customer } from './Customer.js';
import { Macro } from './Macro.js';
import { Ticket } from './Ticket.js';
import { TicketImage } from './TicketImage.js';
import { Message } from './Message.js';
import { Session } from './Session.js';
import { Conversation } from './Conversation.js';
import { ApiToken } from './ApiToken.js';
import { Webhook, WebhookEvent, WebhookJob, WebhookDelivery } from './Webhook.js';
import { Team, TeamMember } from './Team.js';
import { TicketHistoryEvent, TicketNote, TicketNoteRevision } from './TicketTimeline.js';
import { TicketReply, RequesterMessage, RequesterLink, MailOutboxEntry, ReplyAttachment } from './RequesterReplies.js';
import { TicketView } from './TicketView.js';
import { IncomingMail } from './IncomingMail.js';
import { Job } from './Job.js';

export const ENTITIES = [
  User,
  Customer,
  Macro,
  Ticket,
  TicketImage,
  Message,
  Session,
  Conversation,
  ApiToken,
  Webhook,
  WebhookEvent,
  WebhookJob,
  WebhookDelivery,
  TicketHistoryEvent,
  TicketNote,
  TicketNoteRevision,
  TicketReply,
  RequesterMessage,
  RequesterLink,
  MailOutboxEntry,
  Team,
  TeamMember,
  ReplyAttachment,
  TicketView,
  IncomingMail,
  Job,
];
