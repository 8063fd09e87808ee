// `engram import-openapi` as a subprocess on the run's database: an OpenAPI 3 document's operations
// become tools of a scope (through the GraphQL API), importing again changes nothing, a changed
// operation gets a new version, and bad documents are refused without a write.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ok } from './support/access.ts';
import { useHarness } from './support/harness.ts';
import { runEngram } from './support/server-process.ts';

const h = useHarness();
const PETSTORE = join(import.meta.dirname, 'fixtures', 'petstore.yaml');
const dir = mkdtempSync(join(tmpdir(), 'engram-openapi-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const importOpenApi = (file: string, scope: string, ...more: string[]) => runEngram(['import-openapi', file, '--scope', scope, ...more], { DATABASE_URL: h.url });

async function project(name: string): Promise<string> {
  return (await ok(h, null, 'mutation ($n: String!) { createProject(input: { name: $n }) { ... on CreateProjectSuccess { project { id } } } }', { n: name })).createProject.project.id;
}

const TOOLS = `query ($scope: ID!) { tools(filter: { scope: $scope }) { edges { node { name category latestVersion tags { name }
  currentVersion { description constraints parameters } } } } }`;

const tools = async (scope: string) =>
  Object.fromEntries((await ok(h, null, TOOLS, { scope })).tools.edges.map((e: { node: { name: string } }) => [e.node.name, e.node]));

describe('engram import-openapi', () => {
  it("adds one tool per operation, with its parameters as JSON Schema and how to call it", async () => {
    const scope = await project('petstore');
    const run = await importOpenApi(PETSTORE, scope, '--json');
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ created: ['listPets', 'createPet', 'showPetById'], updated: [], unchanged: [], refused: [] });

    const byName = await tools(scope);
    expect(byName.listPets).toMatchObject({
      category: 'api',
      latestVersion: 1,
      tags: [{ name: 'pets' }],
      currentVersion: {
        description: 'List all pets',
        constraints: 'HTTP GET https://petstore.example/v1/pets\nAuthentication: apiKey',
        parameters: { type: 'object', properties: { limit: { type: 'integer', maximum: 100, description: '(query) How many items to return at one time (max 100)' } } },
      },
    });
    // The request body's $ref is inlined; where the schema contains itself, it says so.
    expect(byName.createPet.currentVersion.parameters).toEqual({
      type: 'object',
      required: ['body'],
      properties: {
        body: {
          type: 'object',
          required: ['id', 'name'],
          properties: { id: { type: 'integer' }, name: { type: 'string' }, parent: { description: 'The enclosing schema again (recursive).' } },
          description: '(body, JSON)',
        },
      },
    });
    // Path-level parameters apply to the operation; deprecation is said.
    expect(byName.showPetById.currentVersion).toMatchObject({
      constraints: 'HTTP GET https://petstore.example/v1/pets/{petId}\nAuthentication: apiKey\nDeprecated by the API.',
      parameters: { type: 'object', properties: { petId: { type: 'string', description: '(path)' } }, required: ['petId'] },
    });
  });

  it('importing again changes nothing; a changed operation gets a new version', async () => {
    const scope = await project('petstore-again');
    expect((await importOpenApi(PETSTORE, scope)).status).toBe(0);
    const again = await importOpenApi(PETSTORE, scope, '--json');
    expect(JSON.parse(again.stdout)).toEqual({ created: [], updated: [], unchanged: ['listPets', 'createPet', 'showPetById'], refused: [] });

    const changed = join(dir, 'changed.yaml');
    writeFileSync(changed, readFileSync(PETSTORE, 'utf8').replace('summary: List all pets', 'summary: List the pets, newest first'));
    const update = await importOpenApi(changed, scope, '--json');
    expect(JSON.parse(update.stdout)).toMatchObject({ created: [], updated: ['listPets'], refused: [] });
    const byName = await tools(scope);
    expect(byName.listPets).toMatchObject({ latestVersion: 2, currentVersion: { description: 'List the pets, newest first' } });
    expect(byName.createPet.latestVersion).toBe(1);
  });

  it('refuses documents it cannot read (exit 2) and operations the API refuses (exit 1)', async () => {
    const scope = await project('petstore-bad');
    const external = join(dir, 'external.yaml');
    writeFileSync(external, readFileSync(PETSTORE, 'utf8').replace("$ref: '#/components/schemas/Pet'", "$ref: 'https://schemas.example/pet.json'"));
    const refusedRef = await importOpenApi(external, scope);
    expect(refusedRef.status).toBe(2);
    expect(refusedRef.stderr).toContain('refers to https://schemas.example/pet.json: only references inside the document are followed');

    const swagger = join(dir, 'swagger.json');
    writeFileSync(swagger, JSON.stringify({ swagger: '2.0', info: { title: 'old', version: '1' }, paths: {} }));
    const refusedSwagger = await importOpenApi(swagger, scope);
    expect(refusedSwagger.status).toBe(2);
    expect(refusedSwagger.stderr).toContain('not OpenAPI 3');
    expect(await tools(scope)).toEqual({});

    // Parameters over the 64 KiB a tool may hold: that operation is refused, the others are added.
    const huge = join(dir, 'huge.yaml');
    const values = Array.from({ length: 9_000 }, (_, i) => `value-${i}`);
    writeFileSync(huge, readFileSync(PETSTORE, 'utf8').replace('schema: { type: integer, maximum: 100 }', `schema: { type: string, enum: ${JSON.stringify(values)} }`));
    const partly = await importOpenApi(huge, scope);
    expect(partly.status).toBe(1);
    expect(partly.stdout).toMatch(/refused listPets: VALIDATION_FAILED/);
    expect(Object.keys(await tools(scope)).sort()).toEqual(['createPet', 'showPetById']);
  });

  // Non-cyclic, shared: a{i} refers to a{i-1} twice, so a59 inlined is 2^59 copies of a0 in a 3 KB
  // file. Validation walked it so (20 levels: 7 s, doubling with each level); it is measured first.
  it('refuses a document whose shared $refs inline to more than it reads, at once and with exit 2', { timeout: 30_000 }, async () => {
    const schemas: Record<string, unknown> = { a0: { type: 'string' } };
    for (let i = 1; i < 60; i++) schemas[`a${i}`] = { type: 'object', properties: { x: { $ref: `#/components/schemas/a${i - 1}` }, y: { $ref: `#/components/schemas/a${i - 1}` } } };
    const body = { content: { 'application/json': { schema: { $ref: '#/components/schemas/a59' } } } };
    const document = (paths: unknown) => JSON.stringify({ openapi: '3.0.3', info: { title: 'shared', version: '1' }, paths, components: { schemas } });
    const deep = join(dir, 'deep.json');
    writeFileSync(deep, document({ '/x': { post: { operationId: 'deep', requestBody: body, responses: { 200: { description: 'ok' } } } } }));
    // No operation uses them: validation walked the components all the same.
    const unused = join(dir, 'unused.json');
    writeFileSync(unused, document({ '/y': { get: { operationId: 'plain', responses: { 200: { description: 'ok' } } } } }));
    const scope = await project('shared-refs');
    for (const file of [deep, unused]) {
      const run = await importOpenApi(file, scope);
      expect(run.status, run.stderr).toBe(2);
      expect(run.stderr).toMatch(/is too large with its \$refs inlined: more than 10\^15 bytes of JSON, over the 16 MiB read/);
    }
    expect(await tools(scope)).toEqual({});
  });
});
