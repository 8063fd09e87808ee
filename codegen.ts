import type { CodegenConfig } from '@graphql-codegen/cli';

const client = {
  preset: 'client',
  presetConfig: { fragmentMasking: false },
  config: {
    emitLegacyCommonJSImports: false,
    useTypeImports: true,
    scalars: { DateTime: 'string', JSON: 'unknown', ID: 'string' },
    enumsAsTypes: true,
    avoidOptionals: { field: true, inputValue: false, object: true, defaultValue: false },
  },
} as const;

/** Typed documents for the tests, the TypeScript example client and the dashboard: `npm run codegen`. */
const config: CodegenConfig = {
  schema: 'schema.graphql',
  ignoreNoDocuments: true,
  generates: {
    'test/gql/': { ...client, documents: ['test/**/*.ts', '!test/gql/**'] },
    'examples/typescript/gql/': { ...client, documents: ['examples/typescript/*.ts'] },
    // The dashboard sends documents as strings (no graphql-js in the browser bundle).
    'ui/src/gql/': { ...client, documents: ['ui/src/**/*.ts', 'ui/src/**/*.tsx', '!ui/src/gql/**'], config: { ...client.config, documentMode: 'string' } },
  },
};

export default config;
