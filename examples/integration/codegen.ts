import type { CodegenConfig } from '@graphql-codegen/cli';
import { fileURLToPath } from 'node:url';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * Types this integration's GraphQL documents from the schema Fulcrum publishes (schema/schema.graphql; an
 * integrator would download it, or point `schema` at https://<host>/graphql with a token header).
 * Run `npm run codegen -w examples/integration` after changing a document; src/gql/ is generated.
 */
const config: CodegenConfig = {
  schema: here('../../schema/schema.graphql'),
  documents: [here('src/**/*.ts'), `!${here('src/gql/**/*')}`],
  ignoreNoDocuments: true,
  generates: {
    [here('src/gql/')]: {
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: {
        // Documents as typed strings: sent as they are, no GraphQL library needed at run time.
        documentMode: 'string',
        useTypeImports: true,
        enumsAsTypes: true,
        scalars: { DateTime: 'string', Upload: 'never' },
      },
    },
  },
};

export default config;
