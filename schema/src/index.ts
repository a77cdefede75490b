/** The schema package: entities, migrations, the service layer, the GraphQL schema and the live-event seam. */
import 'reflect-metadata';
export * from './entities/index.js';
export * from './errors.js';
export * from './database.js';
export * from './services/index.js';
export * from './realtime/events.js';
export * from './realtime/presence.js';
export { buildFulcrumSchema } from './graphql/buildSchema.js';
export { createLoaders, type GraphQLContext } from './graphql/context.js';
export { imageUrl } from './graphql/urls.js';
export { seedDemo, DEMO_ACCOUNTS } from './seed/demoSeed.js';
export { demoTicketImage } from './seed/demoImages.js';
export * as rules from './validation/rules.js';
export { WebhookEngine } from './webhooks/engine.js';
export { MailSender } from './mail/sender.js';
export { ReportFolder } from './services/reports/rollupQueue.js';
export { parseAllowList } from './webhooks/ssrf.js';
