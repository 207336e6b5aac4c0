import { test, expect } from '@playwright/test';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse as parseDotenv } from 'dotenv';
import { parse as parseYaml } from 'yaml';
import { runCli } from '../support/cli.js';
import { runMain } from '../support/cli-in-process.js';
import { ROOT } from '../support/root.js';
import { removeTempDirs, tempDir, writeFiles } from '../support/temp-files.js';
import { YamlLanguageServer } from '../support/yaml-language-server.js';

const EXAMPLES = join(ROOT, 'examples');
const PRESET_TYPES = [
  'basic', 'headers', 'http', 'digest', 'graphql', 'oauth_client_credentials', 'oauth_userpass', 'pool_userpass',
  'webdriver', 'curl', 'curl_sequence', 'email_code', 'email_link',
];

/**
 * Every config under examples/: YAML and JSON files, README and .env files aside, and hidden
 * folders (the demo's `.auth/` session cache, test output) skipped.
 */
function exampleConfigs(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name.startsWith('.') || entry.name === 'test-results' ? [] : exampleConfigs(path);
    return /\.(ya?ml|json)$/.test(entry.name) ? [path] : [];
  });
}

/** The variables an example expects in its .env, from the .env.example beside it. */
function exampleEnv(file: string): Record<string, string> {
  const example = join(dirname(file), '.env.example');
  return existsSync(example) ? parseDotenv(readFileSync(example, 'utf8')) : {};
}

const configs = exampleConfigs(EXAMPLES);
test.afterAll(removeTempDirs);
const validateSchema = new Ajv2020({ strict: true, allErrors: true }).compile(
  JSON.parse(readFileSync(join(ROOT, 'docs', 'schema.json'), 'utf8')) as object,
);

test('there is one commented example per preset type', () => {
  for (const type of PRESET_TYPES) {
    const file = join(EXAMPLES, 'presets', `${type}.yaml`);
    expect(existsSync(file), file).toBe(true);
    const text = readFileSync(file, 'utf8');
    expect(text).toMatch(/^# /m);
    expect((parseYaml(text) as { presets: Array<{ type: string }> }).presets.map((p) => p.type)).toContain(type);
  }
});

test('procedures.yaml and at least seven compat examples are among the configs checked below', () => {
  expect(configs).toContain(join(EXAMPLES, 'procedures.yaml'));
  expect(configs.filter((f) => f.includes(`${join('examples', 'compat')}`)).length).toBeGreaterThanOrEqual(7);
});

test('every example opens in the editor without a diagnostic (yaml-language-server, the README\'s $schema line)', async () => {
  const dir = tempDir();
  // The package as npm installs it, so the README's relative `$schema` path resolves.
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(ROOT, join(dir, 'node_modules', 'playwright-multiauth'), 'dir');
  const lsp = await YamlLanguageServer.start(dir);
  try {
    const shown = await Promise.all(configs.map(async (file, index) => {
      // One folder for all: the server loads the schema once per resolved path.
      const uri = `file://${join(dir, `example-${index}.yaml`)}`;
      lsp.open(uri, `# yaml-language-server: $schema=./node_modules/playwright-multiauth/docs/schema.json\n${readFileSync(file, 'utf8')}`);
      return (await lsp.settledDiagnostics(uri)).map((d) => `${relative(ROOT, file)}:${d.range.start.line}: ${d.message}`);
    }));
    expect(shown.flat()).toEqual([]);
  } finally {
    await lsp.stop();
  }
});

for (const file of configs) {
  const name = relative(ROOT, file);

  // In this process (issue 36: one Node start per example cost ~1.2 CPU-s each, 35 of them): the
  // command's behaviour is the same; the bin itself validates an example in the two tests below.
  test(`${name} validates with the CLI`, async () => {
    const run = await runMain(['validate', '-c', name], { cwd: ROOT, env: exampleEnv(file) });
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(new RegExp(`^${name.replace(/[.]/g, '\\.')}: \\d+ users?, \\d+ procedures? OK\\n$`));
    expect(run.code).toBe(0);
  });

  test(`${name} validates against docs/schema.json`, () => {
    const document: unknown = parseYaml(readFileSync(file, 'utf8'));
    const valid = validateSchema(document);
    expect(validateSchema.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });
}

test('procedures.yaml: an admin and a viewer, a login procedure and a refresh with {{refresh_token}}', () => {
  const run = runCli(['validate', '--explain', '-c', 'examples/procedures.yaml']);
  expect(run.code).toBe(0);
  expect(runCli(['users', '-c', 'examples/procedures.yaml']).stdout).toBe('admin\nviewer\n');
  expect(run.stdout).toContain('refresh: procedure "token-refresh", every 300 s');
  expect(run.stdout).toContain('body: {"refresh_token":"{{refresh_token}}"}');
  expect(run.stdout).not.toContain('alice-password');
});

test('secrets-from-env needs its variables: without them, validation names each one and its line', () => {
  // A copy without any .env beside it, so a developer's own examples/secrets-from-env/.env cannot interfere.
  const dir = writeFiles({ 'multiauth.yaml': readFileSync(join(EXAMPLES, 'secrets-from-env', 'multiauth.yaml'), 'utf8') });
  const run = runCli(['validate'], { cwd: dir, env: { DEMO_ADMIN_PASSWORD: undefined, DEMO_VIEWER_PASSWORD: undefined } });
  expect(run.code).toBe(2);
  expect(run.stderr).toMatch(/^multiauth\.yaml:\d+:\d+ {2}presets\[0\]\.users\[0\]\.password: .*DEMO_ADMIN_PASSWORD/m);
  expect(run.stderr).toMatch(/^multiauth\.yaml:\d+:\d+ {2}presets\[0\]\.users\[1\]\.password: .*DEMO_VIEWER_PASSWORD/m);
});
