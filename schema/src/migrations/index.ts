import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261122000000Initial } from './Migration20261122000000Initial.js';
import { Migration20261123110000ApiTokens } from './Migration20261123110000ApiTokens.js';
import { Migration20261123120000Webhooks } from './Migration20261123120000Webhooks.js';
import { Migration20261123130000Conversations } from './Migration20261123130000Conversations.js';
import { Migration20261123140000TicketTriage } from './Migration20261123140000TicketTriage.js';
import { Migration20261125120000StatusIndex } from './Migration20261125120000StatusIndex.js';
import { Migration20261126050000WebhookTokens } from './Migration20261126050000WebhookTokens.js';
import { Migration20261126120000UsernameKeys } from './Migration20261126120000UsernameKeys.js';
import { Migration20261126130000TicketTimeline } from './Migration20261126130000TicketTimeline.js';
import { Migration20261126140000Teams } from './Migration20261126140000Teams.js';
import { Migration20261126150000RequesterReplies } from './Migration20261126150000RequesterReplies.js';
import { Migration20261126160000ReplyAttachments } from './Migration20261126160000ReplyAttachments.js';
import { Migration20261126170000TeamAutoAssign } from './Migration20261126170000TeamAutoAssign.js';
import { Migration20261126180000ReportFacts } from './Migration20261126180000ReportFacts.js';
import { Migration20261126190000IncomingMail } from './Migration20261126190000IncomingMail.js';
import { Migration20261126200000TicketViews } from './Migration20261126200000TicketViews.js';
import { Migration20261126210000ReportRollups } from './Migration20261126210000ReportRollups.js';
import { Migration20261127090000RollupQueue } from './Migration20261127090000RollupQueue.js';
import { Migration20261207140000MacroSharing } from './Migration20261207140000MacroSharing.js';
import { Migration20261207140100TicketSubject } from './Migration20261207140100TicketSubject.js';
import { Migration20261207140200SubjectSearch } from './Migration20261207140200SubjectSearch.js';

/** Every committed migration, in order. Listed explicitly so no file globbing is needed at run time. */
export const MIGRATIONS: MigrationObject[] = [
  { name: 'Migration20261122000000Initial', class: Migration20261122000000Initial },
  { name: 'Migration20261123110000ApiTokens', class: Migration20261123110000ApiTokens },
  { name: 'Migration20261123120000Webhooks', class: Migration20261123120000Webhooks },
  { name: 'Migration20261123130000Conversations', class: Migration20261123130000Conversations },
  { name: 'Migration20261123140000TicketTriage', class: Migration20261123140000TicketTriage },
  { name: 'Migration20261125120000StatusIndex', class: Migration20261125120000StatusIndex },
  { name: 'Migration20261126050000WebhookTokens', class: Migration20261126050000WebhookTokens },
  { name: 'Migration20261126120000UsernameKeys', class: Migration20261126120000UsernameKeys },
  { name: 'Migration20261126130000TicketTimeline', class: Migration20261126130000TicketTimeline },
  { name: 'Migration20261126140000Teams', class: Migration20261126140000Teams },
  { name: 'Migration20261126150000RequesterReplies', class: Migration20261126150000RequesterReplies },
  { name: 'Migration20261126160000ReplyAttachments', class: Migration20261126160000ReplyAttachments },
  { name: 'Migration20261126170000TeamAutoAssign', class: Migration20261126170000TeamAutoAssign },
  { name: 'Migration20261126180000ReportFacts', class: Migration20261126180000ReportFacts },
  { name: 'Migration20261126190000IncomingMail', class: Migration20261126190000IncomingMail },
  { name: 'Migration20261126200000TicketViews', class: Migration20261126200000TicketViews },
  { name: 'Migration20261126210000ReportRollups', class: Migration20261126210000ReportRollups },
  { name: 'Migration20261127090000RollupQueue', class: Migration20261127090000RollupQueue },
  { name: 'Migration20261207140000MacroSharing', class: Migration20261207140000MacroSharing },
  { name: 'Migration20261207140100TicketSubject', class: Migration20261207140100TicketSubject },
  { name: 'Migration20261207140200SubjectSearch', class: Migration20261207140200SubjectSearch },
];
