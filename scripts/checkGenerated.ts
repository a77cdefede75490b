/** Fails when the committed schema.graphql (or the web's generated types) no longer match the code. */
import { readFileSync, existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { printFulcrumSchema, SCHEMA_FILE } from '../schema/src/emitSchema.js';

const committed = existsSync(SCHEMA_FILE) ? readFileSync(SCHEMA_FILE, 'utf8') : '';
if (committed !== (await printFulcrumSchema())) {
  console.error('schema/schema.graphql is out of date: run `npm run schema:emit` and commit it.');
  process.exit(1);
}
console.log('schema.graphql is current');

if (existsSync('codegen.ts')) {
  const before = execFileSync('git', ['status', '--porcelain', 'web/src/gql'], { encoding: 'utf8' });
  execFileSync('npx', ['graphql-codegen', '--config', 'codegen.ts', '--silent'], { stdio: 'inherit' });
  const after = execFileSync('git', ['status', '--porcelain', 'web/src/gql'], { encoding: 'utf8' });
  if (after !== before) {
    console.error('web/src/gql is out of date: run `npm run codegen` and commit it.');
    process.exit(1);
  }
  console.log('web/src/gql is current');
}
