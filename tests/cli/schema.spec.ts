import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { formatJsonSchema, SCHEMA_ID } from '../../src/config/json-schema.js';

const committed = new URL('../../docs/schema.json', import.meta.url);

test('docs/schema.json is current (regenerate: node --import tsx scripts/gen-schema.ts)', () => {
  expect(readFileSync(committed, 'utf8')).toBe(`${JSON.stringify(formatJsonSchema(), null, 2)}\n`);
});

test('the schema is a strict, valid draft 2020-12 schema with an id, title and the config keys', () => {
  const schema = formatJsonSchema();
  expect(schema).toMatchObject({ $schema: 'https://json-schema.org/draft/2020-12/schema', $id: SCHEMA_ID, type: 'object' });
  expect(typeof schema.title).toBe('string');
  expect(Object.keys(schema.properties as object)).toEqual(expect.arrayContaining(['presets', 'procedures', 'users', '$schema']));
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  const validate = ajv.compile(schema);
  expect(validate({ users: [{ name: 'alice', credentials: { username: 'a', password: 'p' } }] })).toBe(true);
  // Input form: keys the loader defaults (headers, cookies, extractions, injections) may be left out.
  expect(validate({ procedures: [{ name: 'p', operations: [{ tech: 'http', parameters: { url: 'https://x', method: 'GET' } }] }] })).toBe(true);
  expect(validate({ users: [{ name: 'alice', pasword: 'p' }] })).toBe(false);
  expect(validate({ presets: [{ type: 'basic', users: [{ username: 'a', password: 1 }] }] })).toBe(false);
});
