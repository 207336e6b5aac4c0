import { test, expect } from '@playwright/test';
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LineCounter, isMap, isPair, isScalar, isSeq, parseDocument, stringify, type Node } from 'yaml';
import { ENV_REFERENCE_PATTERN } from '../../src/config/editor-schema.js';
import { ROOT } from '../support/root.js';
import { tempFiles } from '../support/temp-files.js';
import { YamlLanguageServer, type Position } from '../support/yaml-language-server.js';

/**
 * docs/schema.json as an editor uses it: the real yaml-language-server, driven over LSP, with the
 * README's `$schema` line in a project where the package is installed. Hover, completion and
 * diagnostics are what a user sees while typing multiauth.yaml.
 */

type Schema = Record<string, unknown>;

const schema = JSON.parse(readFileSync(join(ROOT, 'docs', 'schema.json'), 'utf8')) as Schema;
const MODELINE = '# yaml-language-server: $schema=./node_modules/playwright-multiauth/docs/schema.json\n';
const PRESET_TYPES = [
  'basic', 'headers', 'http', 'digest', 'graphql', 'oauth_client_credentials', 'oauth_userpass', 'oauth_ropc',
  'pool_userpass', 'cognito_userpass', 'oauth_authz_code_browser', 'webdriver', 'curl', 'curl_sequence', 'email_code', 'email_link',
];

test.describe.configure({ mode: 'default' });

let lsp: YamlLanguageServer;
let project: { dir: string; remove(): void };
let documents = 0;

test.beforeAll(async () => {
  project = tempFiles();
  // The package as npm installs it, so the README's relative `$schema` path resolves.
  mkdirSync(join(project.dir, 'node_modules'));
  symlinkSync(ROOT, join(project.dir, 'node_modules', 'playwright-multiauth'), 'dir');
  lsp = await YamlLanguageServer.start(project.dir);
});

test.afterAll(async () => {
  await lsp?.stop();
  project?.remove();
});

/**
 * Opens `text` (after the README's `$schema` line) as a new config of the project. All sit in one
 * folder: the server loads the schema once per resolved `$schema` path.
 */
function open(text: string): { uri: string; text: string } {
  const uri = pathToFileURL(join(project.dir, `multiauth-${++documents}.yaml`)).href;
  const full = MODELINE + text;
  lsp.open(uri, full);
  return { uri, text: full };
}

/** The position of the `nth` (0-based) occurrence of `needle` in `text`, plus `shift` characters. */
function positionOf(text: string, needle: string, shift = 0, nth = 0): Position {
  let offset = -1;
  for (let i = 0; i <= nth; i++) offset = text.indexOf(needle, offset + 1);
  if (offset < 0) throw new Error(`"${needle}" is not in the document`);
  const before = text.slice(0, offset + shift);
  return { line: before.split('\n').length - 1, character: before.length - before.lastIndexOf('\n') - 1 };
}

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The `then` branches of a schema discriminated as `allOf` of `if`/`then` (docs/schema.json's presets, operations). */
function branchesOf(node: Schema): Schema[] | undefined {
  const allOf = node.allOf;
  if (!Array.isArray(allOf) || !allOf.every((item) => isSchema(item) && isSchema(item.then))) return undefined;
  return allOf.map((item) => (item as { then: Schema }).then);
}

function isEnvReference(node: unknown): boolean {
  return isSchema(node) && node.pattern === ENV_REFERENCE_PATTERN;
}

/** Whether the value is a scalar that a plain `${NAME}` may stand for (the schema names it as an alternative). */
function takesEnvReference(node: Schema): boolean {
  return Array.isArray(node.anyOf) && node.anyOf.some(isEnvReference) && node.anyOf.every((option) => isSchema(option) && reach(option) <= 1);
}

/** How many keys a branch of an `anyOf` leads to: the richest branch is the one sampled. */
function reach(node: Schema): number {
  if (isEnvReference(node)) return 0;
  if (isSchema(node.properties)) return 3;
  if (node.type === 'array' && isSchema(node.items) && (isSchema(node.items.properties) || branchesOf(node.items))) return 2;
  return 1;
}

/**
 * A value for `node` that holds every key below it, each of its kind: one item per discriminated
 * branch in lists, `${NAME}` wherever the schema takes one. Each key written is recorded with the
 * description the schema gives it.
 */
function sample(node: Schema, path: string, keys: Map<string, string>): unknown {
  if (takesEnvReference(node)) return '${SOME_VALUE}';
  const branches = branchesOf(node);
  if (branches) return sample(branches[0]!, path, keys);
  if (Array.isArray(node.anyOf)) {
    const options = node.anyOf.filter(isSchema).sort((a, b) => reach(b) - reach(a));
    return sample(options[0]!, path, keys);
  }
  if (isSchema(node.properties)) {
    const value: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(node.properties)) {
      if (!isSchema(child)) continue;
      keys.set(`${path}.${key}`, String(child.description ?? ''));
      Object.defineProperty(value, key, { value: sample(child, `${path}.${key}`, keys), enumerable: true });
    }
    return value;
  }
  if (node.type === 'array' && isSchema(node.items)) {
    const items = branchesOf(node.items) ?? [node.items];
    return items.map((item, index) => sample(item, `${path}.${index}`, keys));
  }
  if ('const' in node) return node.const;
  if (Array.isArray(node.enum)) return node.enum[0];
  if (node.type === 'object') return {};
  return 'text';
}

/** Every key of a YAML document with its path (as {@link sample} writes it) and the offset of its first character. */
function keyOffsets(root: Node | null): Map<string, number> {
  const found = new Map<string, number>();
  const walk = (node: unknown, path: string): void => {
    if (isSeq(node)) node.items.forEach((item, index) => walk(item, `${path}.${index}`));
    if (!isMap(node)) return;
    for (const pair of node.items) {
      if (!isPair(pair) || !isScalar(pair.key) || !pair.key.range) continue;
      const key = `${path}.${String(pair.key.value)}`;
      found.set(key, pair.key.range[0]);
      walk(pair.value, key);
    }
  };
  walk(root, '');
  return found;
}

/** Markdown as yaml-language-server escapes a description, back to its text. */
function unescapeMarkdown(text: string): string {
  return text.replace(/\\([\\`*_{}[\]()#+\-.!|<>])/g, '$1');
}

test('every property in docs/schema.json has a description', () => {
  const missing: string[] = [];
  let properties = 0;
  const walk = (node: unknown, path: string): void => {
    if (Array.isArray(node)) return node.forEach((item, index) => walk(item, `${path}[${index}]`));
    if (!isSchema(node)) return;
    if (isSchema(node.properties)) {
      for (const [key, child] of Object.entries(node.properties)) {
        properties++;
        if (!isSchema(child) || typeof child.description !== 'string' || child.description.length < 10) missing.push(`${path}.properties.${key}`);
      }
    }
    for (const [key, child] of Object.entries(node)) walk(child, `${path}.${key}`);
  };
  walk(schema, '#');
  expect(properties).toBeGreaterThan(300);
  expect(missing).toEqual([]);
});

/** The keys under `from` (a path prefix), moved to `to`: what they are called in a document of their own. */
function moved(keys: Map<string, string>, from: string, to: string, also: (key: string) => boolean = () => false): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, description] of keys) {
    if (key.startsWith(from)) out.set(to + key.slice(from.length), description);
    else if (also(key)) out.set(key, description);
  }
  return out;
}

test('hover shows its description for every key of the format, and the sample of every key has no diagnostics', async () => {
  const keys = new Map<string, string>();
  const whole = sample(schema, '', keys) as { presets: unknown[]; procedures: Array<{ operations: unknown[] }> };
  // Every preset type and every operation tech is in the sample, so every key of each is hovered.
  expect(whole.presets).toHaveLength(14);
  expect(whole.procedures[0]!.operations).toHaveLength(4);
  // Small documents: the server validates the whole document for each hover.
  const parts: Array<{ value: unknown; keys: Map<string, string> }> = [
    { value: { ...whole, presets: [], procedures: [] }, keys: new Map([...keys].filter(([key]) => !/^\.(presets|procedures)\./.test(key))) },
    ...whole.presets.map((preset, index) => ({ value: { presets: [preset] }, keys: moved(keys, `.presets.${index}.`, '.presets.0.') })),
    ...whole.procedures[0]!.operations.map((operation, index) => ({
      value: { procedures: [{ ...whole.procedures[0], operations: [operation] }] },
      keys: moved(keys, `.procedures.0.operations.${index}.`, '.procedures.0.operations.0.',
        (key) => index === 0 && key.startsWith('.procedures.0.') && !key.startsWith('.procedures.0.operations.')),
    })),
  ];
  expect(parts.reduce((sum, part) => sum + part.keys.size, 0)).toBe(keys.size);

  const wrong: string[] = [];
  await Promise.all(parts.map(async (part) => {
    const { uri, text } = open(stringify(part.value, { lineWidth: 0 }));
    const lineCounter = new LineCounter();
    const offsets = keyOffsets(parseDocument(text, { lineCounter }).contents);
    await Promise.all([...part.keys].map(async ([path, description]) => {
      const offset = offsets.get(path);
      if (offset === undefined) return wrong.push(`${path}: not in the sample`);
      const { line, col } = lineCounter.linePos(offset + 1);
      const shown = unescapeMarkdown(await lsp.hover(uri, { line: line - 1, character: col - 1 }));
      if (!shown.includes(description)) wrong.push(`${path}: ${shown.slice(0, 200)}`);
    }));
    const diagnostics = await lsp.settledDiagnostics(uri);
    wrong.push(...diagnostics.map((d) => `${text.split('\n')[d.range.start.line]?.trim()}: ${d.message}`));
  }));
  expect(wrong).toEqual([]);
  // Every field that takes ${NAME} holds one in the sample (timeout, insecure, method, status, region...).
  expect(JSON.stringify(whole)).toContain('"timeout":"${SOME_VALUE}"');
});

test('completion after "type:" offers all 16 preset types, in a preset with users and in an empty one', async () => {
  const { uri, text } = open([
    'presets:',
    '  - type: ',
    '    users:',
    '      - { username: alice, password: "${ALICE_PASSWORD}" }',
    '  - type: ',
    'procedures:',
    '  - name: login',
    '    operations:',
    '      - tech: ',
    '        parameters: { url: "${BASE_URL}/login", method: POST }',
    '',
  ].join('\n'));
  const withUsers = await lsp.completion(uri, positionOf(text, '  - type: ', 10, 0));
  const empty = await lsp.completion(uri, positionOf(text, '  - type: ', 10, 1));
  expect([...withUsers].sort()).toEqual([...PRESET_TYPES].sort());
  expect([...empty].sort()).toEqual([...PRESET_TYPES].sort());
  expect((await lsp.completion(uri, positionOf(text, 'tech: ', 6))).sort()).toEqual(['browser', 'digest', 'email', 'http', 'selenium']);
});

test('diagnostics: ${NAME} in numbers, booleans and enumerations is fine, no wrong missing property, an unknown key is an error', async () => {
  // Block style: inside { } a bare ${ is YAML syntax, so there a reference is quoted (docs/format.md).
  const valid = open([
    'validation:',
    '  url: ${BASE_URL}/whoami',
    '  status: ${OK_STATUS}',
    'lifetime: ${LIFETIME}',
    'reauth: ${REAUTH}',
    'presets:',
    '  - type: http',
    '    request:',
    '      url: ${BASE_URL}/auth/token',
    '      method: ${METHOD}',
    '      body: { username: "{{username}}", password: "{{password}}" }',
    '    extractions:',
    '      - { name: token, location: body, key: data.auth.access_token }',
    '    injections:',
    '      - { location: header, key: Authorization, prefix: Bearer, variable: token }',
    '    users:',
    '      - username: alice',
    '        password: "${ALICE_PASSWORD}"',
    '        refresh:',
    '          sessionSeconds: ${SESSION}',
    '          keep: ${KEEP}',
    '  - type: oauth_userpass',
    '    url: ${BASE_URL}/token',
    '    client_id: app',
    '    client_secret: "${CLIENT_SECRET}"',
    '    client_auth: ${CLIENT_AUTH}',
    '    users:',
    '      - { username: bob, password: "${BOB_PASSWORD}" }',
    '  - type: ${PRESET_TYPE}',
    '    users: []',
    'procedures:',
    '  - name: login',
    '    operations:',
    '      - tech: http',
    '        parameters:',
    '          url: ${BASE_URL}/login',
    '          method: POST',
    '          timeout: ${T}',
    '          insecure: ${INSECURE}',
    '          follow_redirects: ${REDIRECTS}',
    '        extractions:',
    '          - name: sid',
    '            location: ${WHERE}',
    '            key: sid',
    'users:',
    '  - name: carol',
    '    procedure: login',
    '    repeater_mtls: ${MTLS}',
    '',
  ].join('\n'));
  expect(await lsp.settledDiagnostics(valid.uri)).toEqual([]);

  // A preset being typed: its type is the one problem, never a key of a type the user did not choose.
  const typing = open('presets:\n  - type:\n    users:\n      - { username: alice, password: x }\n');
  const typingDiagnostics = await lsp.settledDiagnostics(typing.uri);
  expect(typingDiagnostics.map((d) => d.message).join('\n')).not.toContain('Missing property');
  expect(typingDiagnostics.length).toBeGreaterThan(0);

  // A real missing key of the chosen type, and an unknown key, are still reported where they are.
  const wrong = open('presets:\n  - type: curl_sequence\n    users:\n      - username: alice\n        pasword: x\n');
  const messages = (await lsp.settledDiagnostics(wrong.uri)).map((d) => `${d.range.start.line}: ${d.message}`);
  expect(messages.sort()).toEqual(['2: Missing property "requests".', '5: Property pasword is not allowed.']);
});
