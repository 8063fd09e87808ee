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

/** Typed documents for the tests and for the TypeScript example client: `npm run codegen`. */
const config: CodegenConfig = {
  schema: 'schema.graphql',
  ignoreNoDocuments: true,
  generates: {
    'test/gql/': { ...client, documents: ['test/**/*.ts', '!test/gql/**'] },
    'examples/typescript/gql/': { ...client, documents: ['examples/typescript/*.ts'] },
  },
};

export default config;
