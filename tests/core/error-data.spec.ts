import { test, expect } from '@playwright/test';
import { ConfigInvalidError, MultiAuthError } from '../../src/core/errors.js';
import { errorData, errorFromData } from '../../src/core/error-data.js';

test('an error survives JSON with its class, code, context, hint, details and issues', () => {
  const error = new MultiAuthError('AUTH_HTTP_STATUS', 'the server answered HTTP 401', {
    path: ['users', 0], context: { user: 'alice', step: 0, status: 401 }, hint: 'Check the password.', details: ['body: {}'],
  });
  const back = errorFromData(JSON.parse(JSON.stringify(errorData(error))));
  expect(back).toBeInstanceOf(MultiAuthError);
  expect(back?.render()).toBe(error.render());

  const invalid = new ConfigInvalidError('multiauth.yaml', [{ severity: 'error', path: ['users', 0, 'name'], message: 'required', location: { file: 'multiauth.yaml', line: 3, column: 5 } }]);
  const again = errorFromData(JSON.parse(JSON.stringify(errorData(invalid))));
  expect(again).toBeInstanceOf(ConfigInvalidError);
  expect(again?.code).toBe('CONFIG_INVALID');
  expect(again?.render()).toBe(invalid.render());
});

test('what is not an error description gives nothing; unknown fields and wrong types are left out', () => {
  expect(errorFromData(null)).toBeUndefined();
  expect(errorFromData({ code: 'NOT_A_CODE', message: 'x' })).toBeUndefined();
  expect(errorFromData({ code: '__proto__', message: 'x' })).toBeUndefined();
  const odd = errorFromData(JSON.parse('{"code":"AUTH_NETWORK","message":"m","context":{"user":1,"url":"u","__proto__":{"x":1}},"details":[1,"d"],"extra":true}'));
  expect(odd?.context).toEqual({ url: 'u' });
  expect(odd?.details).toEqual(['d']);
});
