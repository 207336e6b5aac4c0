import { test, expect } from '@playwright/test';
import { ConfigInvalidError, MultiAuthError } from '../../src/core/errors.js';
import { redactError, withContext } from '../../src/core/error-context.js';
import { MASK, Redactor } from '../../src/core/redactor.js';

const SECRET = 'hunter2-secret';

function thrown(): MultiAuthError {
  const cause = new Error('socket said no');
  return new MultiAuthError('AUTH_HTTP_STATUS', `the server answered HTTP 401, echoing ${SECRET}`, {
    context: { method: 'POST', url: `https://api.test/login?pw=${SECRET}`, status: 401 },
    details: [`response body: {"password":"${SECRET}"}`],
    hint: `Check the password (not ${SECRET}).`,
    location: { file: 'multiauth.yaml', line: 3, column: 5 },
    cause,
  });
}

test('withContext fills in the context the thrower left out; the thrower\'s own fields win', () => {
  const error = withContext(thrown(), { context: { user: 'alice', procedure: 'login', step: 0, stepKind: 'http', status: 500 } });
  expect(error.context).toEqual({ user: 'alice', procedure: 'login', step: 0, stepKind: 'http', method: 'POST', url: `https://api.test/login?pw=${SECRET}`, status: 401 });
  expect(error.code).toBe('AUTH_HTTP_STATUS');
  expect(error.location).toEqual({ file: 'multiauth.yaml', line: 3, column: 5 });
});

test('withContext adds a path only when the error has none, words to the message and detail lines', () => {
  const error = withContext(thrown(), { path: ['procedures', 0], messageSuffix: ' after 3 attempts', details: ['earlier attempts: HTTP 503'] });
  expect(error.path).toEqual(['procedures', 0]);
  expect(error.message).toMatch(/ after 3 attempts$/);
  expect(error.details.at(-1)).toBe('earlier attempts: HTTP 503');
  expect(withContext(new MultiAuthError('CURL_PARSE', 'x', { path: ['users', 1] }), { path: ['procedures', 0] }).path).toEqual(['users', 1]);
});

test('withContext with a redactor masks message, details, hint and URL; keeps code, cause and stack', () => {
  const original = thrown();
  const error = withContext(original, {}, new Redactor().add(SECRET));
  const text = [error.message, ...error.details, error.hint, error.context?.url, error.render()].join('\n');
  expect(text).not.toContain(SECRET);
  expect(text).toContain(MASK);
  expect(error.cause).toBe(original.cause);
  expect(error.stack).toBe(original.stack);
});

test('withContext returns anything but a plain MultiAuthError unchanged', () => {
  const bug = new TypeError('a bug');
  expect(withContext(bug, { context: { user: 'alice' } })).toBe(bug);
  const config = new ConfigInvalidError('multiauth.yaml', [{ severity: 'error', path: [], message: 'bad' }]);
  expect(withContext(config, { context: { user: 'alice' } })).toBe(config);
});

test('redactError keeps the class and code, masks every text, drops the cause', () => {
  const redactor = new Redactor().add(SECRET);
  const error = redactError(thrown(), redactor);
  expect(error).toBeInstanceOf(MultiAuthError);
  expect(error.code).toBe('AUTH_HTTP_STATUS');
  expect(error.cause).toBeUndefined();
  expect([error.message, ...error.details, error.hint, JSON.stringify(error.context)].join('\n')).not.toContain(SECRET);

  const config = new ConfigInvalidError('multiauth.yaml', [{ severity: 'error', path: ['users', 0], message: `bad ${SECRET}`, hint: `not ${SECRET}` }], 'CONFIG_ENV_MISSING');
  const shown = redactError(config, redactor);
  expect(shown).toBeInstanceOf(ConfigInvalidError);
  expect(shown.code).toBe('CONFIG_ENV_MISSING');
  expect((shown as ConfigInvalidError).file).toBe('multiauth.yaml');
  expect((shown as ConfigInvalidError).issues).toEqual([{ severity: 'error', path: ['users', 0], message: `bad ${MASK}`, hint: `not ${MASK}` }]);
});
