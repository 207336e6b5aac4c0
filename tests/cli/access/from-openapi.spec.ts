import { test, expect } from '@playwright/test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { draftAccessRequests, readOpenApi } from '../../../src/cli/access/from-openapi.js';
import { MultiAuthError } from '../../../src/core/errors.js';
import { removeTempDirs, tempDir } from '../../support/temp-files.js';

const PETSTORE = join(import.meta.dirname, 'fixtures', 'petstore-openapi.yaml');

test.afterAll(removeTempDirs);

test('--from-openapi drafts the safe operations of the published Petstore document, path parameters as placeholders to fill', async () => {
  const draft = draftAccessRequests(await readOpenApi(PETSTORE));
  const requests = parse(draft).access.requests as Array<Record<string, unknown>>;
  expect(requests.map((r) => `${r.method} ${r.name}`)).toEqual([
    'GET findPetsByStatus',
    'GET findPetsByTags',
    'GET getPetById',
    'GET getInventory',
    'GET getOrderById',
    'GET loginUser',
    'GET logoutUser',
    'GET getUserByName',
  ]);
  expect(requests.find((r) => r.name === 'getPetById')).toEqual({ name: 'getPetById', method: 'GET', url: '${BASE_URL}/api/v3/pet/{{ users.OWNER.petId }}' });
  expect(draft).toContain('# TODO: the user that owns the object declares petId in its variables (rename OWNER)\n    - name: getPetById');
  expect(draft).toContain('# 11 unsafe operations (POST, PUT, PATCH, DELETE) left out: --unsafe drafts them.');
  expect(draft.startsWith('# Drafted by multiauth matrix --from-openapi from Swagger Petstore - OpenAPI 3.0: 8 requests.')).toBe(true);
});

test('--from-openapi --unsafe adds the other operations marked unsafe, placeholders named for the chosen owner', async () => {
  const draft = draftAccessRequests(await readOpenApi(PETSTORE), { unsafe: true, owner: 'alice' });
  const requests = parse(draft).access.requests as Array<Record<string, unknown>>;
  expect(requests).toHaveLength(19);
  expect(requests.find((r) => r.name === 'deleteOrder')).toEqual({ name: 'deleteOrder', method: 'DELETE', url: '${BASE_URL}/api/v3/store/order/{{ users.alice.orderId }}', unsafe: true });
  expect(draft).not.toContain('left out');
});

test('--from-openapi fills parameters from examples, resolving $ref parameters, and names operations without an id', async () => {
  const dir = tempDir();
  const file = join(dir, 'api.json');
  writeFileSync(file, JSON.stringify({
    openapi: '3.1.0',
    info: { title: 'Blog', version: '1' },
    servers: [{ url: 'https://{host}/api/{version}/', variables: { host: { default: 'x.test' }, version: { default: 'v2' } } }],
    paths: {
      '/posts/{post-id}/comments/{commentId}': {
        parameters: [{ $ref: '#/components/parameters/PostId' }],
        get: {
          summary: 'A comment\n of a post',
          parameters: [
            { name: 'commentId', in: 'path', required: true, schema: { type: 'integer' }, examples: { first: { value: 7 } } },
            { name: 'context', in: 'query', required: true, schema: { enum: ['view', 'edit'] } },
            { name: 'page', in: 'query', schema: { type: 'integer' } },
          ],
        },
      },
      '/posts': { get: { responses: {} }, head: { operationId: 'countPosts' } },
    },
    components: { parameters: { PostId: { name: 'post-id', in: 'path', required: true, example: 'hello world' } } },
  }));
  const requests = parse(draftAccessRequests(await readOpenApi(file))).access.requests;
  expect(requests).toEqual([
    { name: 'A comment of a post', method: 'GET', url: '${BASE_URL}/api/v2/posts/hello%20world/comments/7?context=view' },
    { name: 'GET /posts', method: 'GET', url: '${BASE_URL}/api/v2/posts' },
    { name: 'countPosts', method: 'HEAD', url: '${BASE_URL}/api/v2/posts' },
  ]);
});

test('--from-openapi refuses what is not an OpenAPI 3 document, and never follows a $ref out of the file', async () => {
  const dir = tempDir();
  const write = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };
  const refusal = async (file: string) => {
    const error = await readOpenApi(file).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(MultiAuthError);
    return error as MultiAuthError;
  };
  const swagger = await refusal(write('swagger.yaml', 'swagger: "2.0"\npaths: {}\n'));
  expect(swagger.code).toBe('OPENAPI_INVALID');
  expect(swagger.hint).toContain('Convert it to OpenAPI 3');
  expect((await refusal(join(dir, 'missing.yaml'))).message).toContain('missing.yaml');
  expect((await refusal(write('bad.yaml', 'openapi: [\n'))).message).toContain('not YAML or JSON');
  expect((await refusal(write('bomb.yaml', `openapi: 3.0.0\na: &a [x, x, x, x, x, x, x, x, x, x]\n${Array.from({ length: 1200 }, (_, i) => `k${i}: *a`).join('\n')}\n`))).code).toBe('OPENAPI_INVALID');
  write('secret.yaml', 'name: leaked\n');
  const external = write('external.yaml', `openapi: 3.0.0\ninfo: { title: t, version: '1' }\npaths:\n  /a/{id}:\n    get:\n      parameters: [{ $ref: './secret.yaml' }]\n`);
  const draft = draftAccessRequests(await readOpenApi(external));
  expect(draft).not.toContain('leaked');
});
