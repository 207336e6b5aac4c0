import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect } from '@playwright/test';
import { findConfigFile, loadConfig, parseConfig } from '../../src/config/index.js';
import { ConfigInvalidError } from '../../src/core/errors.js';
import { thrown } from '../support/errors.js';
import { tempFiles } from '../support/temp-files.js';
import { brief, issuesOf, position } from './helpers.js';

const YAML_TEXT = `presets:
  - type: basic
    users:
      - username: alice
        password: pw-alice
users:
  - name: bob
    credentials:
      username: bob
      password: pw-bob
`;

const JSON_TEXT = `{
  "presets": [
    { "type": "basic", "users": [{ "username": "alice", "password": "pw-alice" }] }
  ],
  "users": [
    {
      "name": "bob",
      "credentials": { "username": "bob", "password": "pw-bob" }
    }
  ]
}
`;

test.describe('loadConfig', () => {
  for (const [name, text] of [['multiauth.yaml', YAML_TEXT], ['multiauth.yml', YAML_TEXT], ['multiauth.json', JSON_TEXT]] as const) {
    test(`reads ${name}`, () => {
      const { dir, remove } = tempFiles({ [name]: text });
      try {
        const file = join(dir, name);
        const loaded = loadConfig(file, { env: {} });
        expect(loaded.file).toBe(file);
        expect(loaded.config.presets).toEqual([{ type: 'basic', users: [{ username: 'alice', password: 'pw-alice' }] }]);
        expect(loaded.config.users).toEqual([{ name: 'bob', credentials: { username: 'bob', password: 'pw-bob' } }]);
        expect(loaded.config.procedures).toEqual([]);
        expect(loaded.warnings).toEqual([]);
        expect(loaded.contentHash).toMatch(/^[0-9a-f]{64}$/);
      } finally {
        remove();
      }
    });
  }

  test('locates nodes in YAML, 1-based, and falls back to the nearest ancestor', () => {
    const loaded = parseConfig(YAML_TEXT, 'multiauth.yaml', { env: {} });
    expect(loaded.locate(['presets', 0, 'users', 0, 'password'])).toEqual({ file: 'multiauth.yaml', line: 5, column: 19 });
    expect(loaded.locate(['users', 0, 'name'])).toEqual({ file: 'multiauth.yaml', line: 7, column: 11 });
    expect(loaded.locate(['users', 0, 'credentials', 'headers'])).toEqual(loaded.locate(['users', 0, 'credentials']));
    expect(loaded.locate(['users', 0, 'credentials'])).toEqual({ file: 'multiauth.yaml', line: 9, column: 7 });
    expect(loaded.locate([])).toEqual({ file: 'multiauth.yaml', line: 1, column: 1 });
  });

  test('locates nodes in JSON the same way', () => {
    const loaded = parseConfig(JSON_TEXT, 'multiauth.json', { env: {} });
    expect(loaded.locate(['users', 0, 'name'])).toEqual({ file: 'multiauth.json', line: 7, column: 15 });
    expect(loaded.locate(['users', 0, 'credentials', 'password'])).toEqual({ file: 'multiauth.json', line: 8, column: 55 });
    expect(loaded.locate(['presets', 0, 'users', 0, 'username'])).toEqual({ file: 'multiauth.json', line: 3, column: 48 });
  });

  test('a missing file is CONFIG_NOT_FOUND with a hint and no stack in the text', () => {
    const error = thrown(() => loadConfig('/nonexistent/dir/multiauth.yaml'));
    expect(error.code).toBe('CONFIG_NOT_FOUND');
    expect(error.message).toBe('cannot read the config /nonexistent/dir/multiauth.yaml: no such file');
    expect(error.hint).toContain('-c FILE');
    expect(error.render()).not.toMatch(/\n\s+at /);
  });

  test('a directory is CONFIG_NOT_FOUND', () => {
    const { dir, remove } = tempFiles();
    try {
      mkdirSync(join(dir, 'x.yaml'));
      const error = thrown(() => loadConfig(join(dir, 'x.yaml')));
      expect(error.code).toBe('CONFIG_NOT_FOUND');
      expect(error.message).toBe(`cannot read the config ${join(dir, 'x.yaml')}: it is a directory`);
    } finally {
      remove();
    }
  });

  test('an unknown extension is refused before reading', () => {
    const error = thrown(() => loadConfig('multiauth.toml'));
    expect(error.code).toBe('CONFIG_SYNTAX');
    expect(error.message).toBe('multiauth.toml: unknown config file type ".toml"');
    expect(error.hint).toBe('Name the config file *.yaml, *.yml or *.json.');
  });

  test('a YAML syntax error is CONFIG_SYNTAX with its position', () => {
    const error = thrown(() => parseConfig('users:\n  - name: a\n   procedure: b\n', 'multiauth.yaml', { env: {} }));
    expect(error).toBeInstanceOf(ConfigInvalidError);
    expect(error.code).toBe('CONFIG_SYNTAX');
    const issues = (error as ConfigInvalidError).issues;
    expect(issues).toHaveLength(1);
    expect(position(issues[0])).toBe('3:1');
    expect(issues[0]?.hint).toBeTruthy();
  });

  test('syntax errors never quote the source text, which may hold a secret', () => {
    for (const text of ['a: [1]\n]\nhunter2\n', 'a: [1]]\n"hunter2"\n', '- a\nb: hunter2\n']) {
      const error = thrown(() => parseConfig(text, 'multiauth.yaml', { env: {} }));
      expect(error.code).toBe('CONFIG_SYNTAX');
      expect(error.render()).not.toContain('hunter2');
    }
    const json = thrown(() => parseConfig('{"users": [{"name": "a"}]] "hunter2"', 'multiauth.json', { env: {} }));
    expect(json.render()).not.toContain('hunter2');
  });

  test('a JSON syntax error speaks JSON and is located', () => {
    const issues = issuesOf(() => parseConfig('{\n  "users": [\n    { "name": "a" }\n    { "name": "b" }\n  ]\n}\n', 'multiauth.json', { env: {} }));
    expect(issues.map((i) => i.message)).toEqual(["invalid JSON: expected ',' or ']' after array element"]);
    expect(position(issues[0])).toBe('4:5');
  });

  test('duplicate keys are errors, at the second one', () => {
    const error = thrown(() => parseConfig('users:\n  - name: a\n    name: b\n', 'multiauth.yaml', { env: {} }));
    expect(error.code).toBe('CONFIG_SYNTAX');
    const issues = (error as ConfigInvalidError).issues;
    expect(brief(issues)).toEqual(['users[0].name: duplicate key "name" (first at line 2)']);
    expect(position(issues[0])).toBe('3:5');
  });

  test('duplicate keys in JSON are errors too', () => {
    const issues = issuesOf(() => parseConfig('{"users": [], "users": []}', 'multiauth.json', { env: {} }));
    expect(brief(issues)).toEqual(['users: duplicate key "users"']);
    expect(position(issues[0])).toBe('1:15');
  });

  test('an empty file and a non-object file are errors', () => {
    expect(brief(issuesOf(() => parseConfig('# nothing\n', 'multiauth.yaml', { env: {} })))).toEqual(['(root): the config is empty']);
    expect(brief(issuesOf(() => parseConfig('- a\n', 'multiauth.yaml', { env: {} })))).toEqual(['(root): the config must be an object, got a list']);
  });

  test('an alias without anchor is located', () => {
    const issues = issuesOf(() => parseConfig('users:\n  - name: *who\n', 'multiauth.yaml', { env: {} }));
    expect(brief(issues)).toEqual(['users[0].name: alias *who has no anchor']);
    expect(position(issues[0])).toBe('2:11');
  });

  test('anchors, aliases and merge keys work', () => {
    const text = [
      'users:',
      '  - name: a',
      '    credentials: &c { username: u, password: p }',
      '  - name: b',
      '    credentials: *c',
      '  - name: c',
      '    credentials: { <<: *c, username: c }',
    ].join('\n');
    const loaded = parseConfig(text, 'multiauth.yaml', { env: {} });
    expect(loaded.config.users.map((u) => u.credentials)).toEqual([
      { username: 'u', password: 'p' }, { username: 'u', password: 'p' }, { username: 'c', password: 'p' },
    ]);
  });

  test('all issues of a file come at once, sorted by line', () => {
    const text = 'users:\n  - name: a\n    procedure: nope\n  - nmae: b\nprocedures: 3\n';
    const error = thrown(() => parseConfig(text, 'multiauth.yaml', { env: {} })) as ConfigInvalidError;
    expect(error.code).toBe('CONFIG_INVALID');
    const lines = error.issues.map((i) => i.location?.line);
    expect(lines).toEqual([...lines].sort((a, b) => (a ?? 0) - (b ?? 0)));
    expect(brief(error.issues)).toEqual([
      'users[1].nmae: unknown key "nmae" (did you mean "name"?)',
      'procedures: expected list, got number',
    ]);
    expect(error.render().split('\n')[0]).toBe('multiauth.yaml:4:5  users[1].nmae: unknown key "nmae" (did you mean "name"?)');
  });

  test('contentHash is the sha256 of the text after substitution', () => {
    const text = 'users:\n  - name: a\n    credentials: { username: a, password: "${PW}" }\n';
    const one = parseConfig(text, 'multiauth.yaml', { env: { PW: 'one' } });
    const again = parseConfig(text, 'multiauth.yaml', { env: { PW: 'one' } });
    const two = parseConfig(text, 'multiauth.yaml', { env: { PW: 'two' } });
    expect(one.contentHash).toBe(again.contentHash);
    expect(one.contentHash).not.toBe(two.contentHash);
    const expected = createHash('sha256').update(text.replace('${PW}', 'one')).digest('hex');
    expect(one.contentHash).toBe(expected);
  });

  test('warnings are returned with the config, located', () => {
    const loaded = parseConfig('users:\n  - name: idle\n', 'multiauth.yaml', { env: {} });
    expect(brief(loaded.warnings)).toEqual(['warning users[0]: user "idle" has neither a procedure nor credentials: it will send nothing']);
    expect(position(loaded.warnings[0])).toBe('2:5');
  });
});

test.describe('findConfigFile', () => {
  test('prefers multiauth.yaml, then .yml, then .json', () => {
    const { dir, remove } = tempFiles({ 'multiauth.json': '{}', 'multiauth.yml': '{}' });
    try {
      expect(findConfigFile(dir)).toBe(join(dir, 'multiauth.yml'));
      writeFileSync(join(dir, 'multiauth.yaml'), '{}');
      expect(findConfigFile(dir)).toBe(join(dir, 'multiauth.yaml'));
    } finally {
      remove();
    }
  });

  test('finds .json alone, and nothing in an empty directory', () => {
    const { dir, remove } = tempFiles();
    try {
      expect(findConfigFile(dir)).toBeUndefined();
      writeFileSync(join(dir, 'multiauth.json'), '{}');
      expect(findConfigFile(dir)).toBe(join(dir, 'multiauth.json'));
    } finally {
      remove();
    }
  });
});
