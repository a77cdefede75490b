import type { CodegenConfig } from '@graphql-codegen/cli';

/**
 * Types every GraphQL document of the web app from the committed schema.
 * Run `npm run codegen` after changing a `graphql(...)` document; web/src/gql/ is generated, never hand-edited.
 */
const config: CodegenConfig = {
  schema: 'schema/schema.graphql',
  documents: ['web/src/**/*.{ts,tsx}', '!web/src/gql/**/*'],
  ignoreNoDocuments: true,
  generates: {
    'web/src/gql/': {
      preset: 'client',
      presetConfig: { fragmentMasking: { unmaskFunctionName: 'useFragment' } },
      config: {
        useTypeImports: true,
        enumsAsTypes: true,
        scalars: { DateTime: 'string', Upload: 'File' },
      },
    },
  },
};

export default config;
