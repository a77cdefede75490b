import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261122000000Initial } from './Migration20261122000000Initial.js';

/** Every committed migration, in order. Listed explicitly so no file globbing is needed at run time. */
export const MIGRATIONS: MigrationObject[] = [{ name: 'Migration20261122000000Initial', class: Migration20261122000000Initial }];
import { Migration20261123120000Webhooks } from './Migration20261123120000Webhooks.js';
MIGRATIONS.push({ name: 'Migration20261123120000Webhooks', class: Migration20261123120000Webhooks });
