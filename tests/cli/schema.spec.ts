import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { formatJsonSchema, SCHEMA_ID } from '../../src/config/json-schema.js';

const committed = new URL('../../docs/schema.json', import.meta.url);

// One compiled validator for the file: compiling the schema is most of its time.
test.describe.configure({ mode: 'default' });
let compiled: ValidateFunction | undefined;
const validator = (): ValidateFunction => (compiled ??= new Ajv2020({ strict: true, allErrors: true }).compile(formatJsonSchema()));

test('docs/schema.json is current (regenerate: node --import tsx scripts/gen-schema.ts)', () => {
  expect(readFileSync(committed, 'utf8')).toBe(`${JSON.stringify(formatJsonSchema(), null, 2)}\n`);
});

test('the schema is a strict, valid draft 2020-12 schema with an id, title and the config keys', () => {
  const schema = formatJsonSchema();
  expect(schema).toMatchObject({ $schema: 'https://json-schema.org/draft/2020-12/schema', $id: SCHEMA_ID, type: 'object' });
  expect(typeof schema.title).toBe('string');
  expect(Object.keys(schema.properties as object)).toEqual(expect.arrayContaining(['presets', 'procedures', 'users', '$schema']));
  const validate = validator();
  expect(validate({ users: [{ name: 'alice', credentials: { username: 'a', password: 'p' } }] })).toBe(true);
  // Input form: keys the loader defaults (headers, cookies, extractions, injections) may be left out.
  expect(validate({ procedures: [{ name: 'p', operations: [{ tech: 'http', parameters: { url: 'https://x', method: 'GET' } }] }] })).toBe(true);
  expect(validate({ users: [{ name: 'alice', pasword: 'p' }] })).toBe(false);
  expect(validate({ presets: [{ type: 'basic', users: [{ username: 'a', password: 1 }] }] })).toBe(false);
});

test('for editors, presets and operations are checked by their own type, and ${NAME} stands for numbers, booleans and enumerations', () => {
  const validate = validator();
  const operation = { tech: 'http', parameters: { url: 'https://x', method: '${METHOD}', timeout: '${T}', insecure: '${INSECURE}', follow_redirects: '${N}' } };
  expect(validate({ lifetime: '${LIFETIME}', procedures: [{ name: 'p', operations: [operation] }], users: [{ name: 'a', procedure: 'p', repeater_mtls: '${M}' }] })).toBe(true);
  expect(validate({ presets: [{ type: 'oauth_ropc', url: 'https://x', client_id: 'c', client_secret: 's', client_auth: '${AUTH}', users: [{ username: 'a', password: 'p' }] }] })).toBe(true);
  // Only a whole ${NAME} is a reference; other text where a number goes is still wrong.
  expect(validate({ lifetime: '30s' })).toBe(false);
  expect(validate({ lifetime: '${LIFE}TIME' })).toBe(false);
  // The chosen type's keys, and only them: a curl preset has no `request`; an http preset needs one.
  expect(validate({ presets: [{ type: 'curl', users: [], extractions: [], injections: [], request: { url: 'https://x', method: 'GET' } }] })).toBe(false);
  expect(validate({ presets: [{ type: 'http', users: [], extractions: [], injections: [] }] })).toBe(false);
  expect(validate({ presets: [{ type: 'no_such_type', users: [] }] })).toBe(false);
  expect(validate({ presets: [{ users: [] }] })).toBe(false);
  expect(validate({ procedures: [{ name: 'p', operations: [{ tech: 'digest', parameters: { url: 'https://x', method: 'GET' } }] }] })).toBe(false);
});
