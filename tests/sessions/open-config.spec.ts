import { test, expect } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigInvalidError, renderIssue } from '../../src/core/errors.js';
import { MASK } from '../../src/core/redactor.js';
import { openConfig } from '../../src/sessions/open-config.js';
import { RESERVED_PROCEDURE_CONFIG as RESERVED } from '../support/config-texts.js';
import { thrown } from '../support/errors.js';
import { tempFiles as tempDir } from '../support/temp-files.js';
import { preflight } from '../../src/runtime/engine/preflight.js';

const HINT = 'Say how to name a config.';

/** A user with a template nothing defines: checkPlan warns, the config stays usable. */
const WARNED = `procedures:
  - name: login
    operations:
      - tech: http
        parameters: { url: "http://127.0.0.1:9/login", method: POST, body: { u: "{{username}}", otp: "{{otp}}" } }
users:
  - { name: alice, procedure: login, credentials: { username: alice, password: open-config-pw } }
`;


test('finds multiauth.yml; without any config, names all three file names and gives the caller\'s hint', () => {
  const { dir, remove } = tempDir({ 'multiauth.yml': WARNED });
  try {
    expect(openConfig({ baseDir: dir, env: {}, notFoundHint: HINT, preflight }).file).toBe(join(dir, 'multiauth.yml'));
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    const error = thrown(() => openConfig({ baseDir: empty, env: {}, notFoundHint: HINT, preflight }));
    expect(error.code).toBe('CONFIG_NOT_FOUND');
    expect(error.message).toBe(`no multiauth.yaml, multiauth.yml or multiauth.json in ${empty}`);
    expect(error.hint).toBe(HINT);
  } finally {
    remove();
  }
});

test('a relative file resolves from baseDir, not from the current folder', () => {
  const { dir, remove } = tempDir({ 'auth.yaml': WARNED });
  try {
    expect(openConfig({ file: 'auth.yaml', baseDir: dir, env: {}, notFoundHint: HINT, preflight }).file).toBe(join(dir, 'auth.yaml'));
  } finally {
    remove();
  }
});

test('a compile error is located at file:line:col like every other issue', () => {
  const { dir, remove } = tempDir({ 'multiauth.yaml': RESERVED });
  try {
    const error = thrown(() => openConfig({ baseDir: dir, env: {}, notFoundHint: HINT, preflight }));
    expect(error).toBeInstanceOf(ConfigInvalidError);
    expect((error as ConfigInvalidError).issues.map(renderIssue)[0]).toBe(
      `${join(dir, 'multiauth.yaml')}:9:11  procedures[0].name: procedure name "preset[0]:http" is reserved for a preset\n` +
        '    Rename the procedure: names starting with "preset[" name the procedures compiled from presets.',
    );
  } finally {
    remove();
  }
});

test('warnings of the plan checks come back located; the redactor knows the plan\'s secrets', () => {
  const { dir, remove } = tempDir({ 'multiauth.yaml': WARNED });
  try {
    const opened = openConfig({ baseDir: dir, env: {}, notFoundHint: HINT, preflight });
    expect(opened.plan.users.map((u) => u.name)).toEqual(['alice']);
    expect(opened.warnings.map((w) => [w.severity, w.location?.line, w.message.split(':')[0]])).toEqual([['warning', 4, '{{otp}} is never defined']]);
    expect(opened.redactor.redact('sent open-config-pw')).toBe(`sent ${MASK}`);
    // Only what the loader finds without the checks (for callers that need the users only).
    expect(openConfig({ baseDir: dir, env: {}, notFoundHint: HINT, checks: false }).warnings).toEqual([]);
  } finally {
    remove();
  }
});

test('an error of the checks throws every issue, warnings too, in file order', () => {
  const broken = WARNED.replace('users:', '    injections: [{ location: header, key: X, variable: nope }]\nusers:');
  const { dir, remove } = tempDir({ 'multiauth.yaml': broken });
  try {
    const error = thrown(() => openConfig({ baseDir: dir, env: {}, notFoundHint: HINT, preflight }));
    expect(error).toBeInstanceOf(ConfigInvalidError);
    const issues = (error as ConfigInvalidError).issues;
    expect(issues.map((i) => i.severity)).toContain('warning');
    expect(issues.map((i) => i.severity)).toContain('error');
    const lines = issues.map((i) => i.location?.line ?? 0);
    expect(lines).toEqual([...lines].sort((a, b) => a - b));
  } finally {
    remove();
  }
});
