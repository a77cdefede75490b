/** Writes the committed schema.graphql (npm run schema:emit); a test fails when it is out of date. */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { printSchema, lexicographicSortSchema } from 'graphql';
import { buildFulcrumSchema } from './graphql/buildSchema.js';

export const SCHEMA_FILE = fileURLToPath(new URL('../schema.graphql', import.meta.url));

export async function printFulcrumSchema(): Promise<string> {
  return printSchema(lexicographicSortSchema(await buildFulcrumSchema())) + '\n';
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(SCHEMA_FILE, await printFulcrumSchema());
  console.log(`wrote ${SCHEMA_FILE}`);
}
