import type { CodegenConfig } from '@graphql-codegen/cli';

/** Typed documents for the tests (and any TypeScript client): `npm run codegen`. */
const config: CodegenConfig = {
  schema: 'schema.graphql',
  documents: ['test/**/*.ts', '!test/gql/**'],
  ignoreNoDocuments: true,
  generates: {
    'test/gql/': {
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: {
        emitLegacyCommonJSImports: false,
        useTypeImports: true,
        scalars: { DateTime: 'string', JSON: 'unknown', ID: 'string' },
        enumsAsTypes: true,
        avoidOptionals: { field: true, inputValue: false, object: true, defaultValue: false },
      },
    },
  },
};

export default config;
