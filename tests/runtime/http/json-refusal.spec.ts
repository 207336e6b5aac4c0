import { test, expect } from '@playwright/test';
import { describeJsonRefusal } from '../../../src/runtime/http/json-refusal.js';

/** The refusal members of a JSON answer (issue 35, item 3): which are quoted, and the walk's bounds. */

test('each refusal member is quoted: error (string, with error_description), error.message and error.data, errors[], message, a failed result with its reason', () => {
  expect(describeJsonRefusal('{"error":"invalid_grant","error_description":"Bad password"}')).toBe('invalid_grant: Bad password');
  expect(describeJsonRefusal('{"error":{"code":100,"message":"Odoo Session Expired","data":"Session terminated, re-login, please."}}')).toBe(
    'Odoo Session Expired; Session terminated, re-login, please.',
  );
  expect(describeJsonRefusal('{"error":{"message":"Server Error","data":{"name":"AccessDenied","message":"Access Denied"}}}')).toBe('Server Error; Access Denied');
  expect(describeJsonRefusal('{"errors":[{"message":"Invalid user credentials.","extensions":{"code":"INVALID_CREDENTIALS"}},"second"]}')).toBe(
    'Invalid user credentials.; second',
  );
  expect(describeJsonRefusal('{"status":"error","message":"Wrong  password\\n"}')).toBe('Wrong password');
  expect(describeJsonRefusal('{"login":{"result":"Failed","reason":"Incorrect username or password entered.\\nPlease try again."}}')).toBe(
    'Failed: Incorrect username or password entered. Please try again.',
  );
  expect(describeJsonRefusal('{"clientlogin":{"status":"FAIL"},"login":{"result":"WrongToken","reason":{"code":"x","text":"Invalid token"}}}')).toBe('WrongToken: Invalid token');
});

test('nothing to quote: a success, an answer without refusal members, arrays, HTML, broken JSON', () => {
  for (const body of [
    '{"login":{"result":"Success","lgusername":"Alice"}}',
    '{"access_token":"x","token_type":"Bearer"}',
    '[{"message":"an array is not an answer object"}]',
    '<html><p class="error">no</p></html>',
    '{"message": ',
    '',
    '{"error": 42, "message": null, "errors": "not a list"}',
  ]) {
    expect(describeJsonRefusal(body), body).toBeUndefined();
  }
});

test('bounded: quotes cut to 200 characters, at most 4 of them and 3 errors, three objects deep, a large body not parsed, __proto__ never followed', () => {
  const long = describeJsonRefusal(JSON.stringify({ message: 'x'.repeat(5_000) }))!;
  expect(long).toBe(`${'x'.repeat(200)}…`);
  const many = describeJsonRefusal(JSON.stringify({ errors: Array.from({ length: 1_000 }, (_, i) => ({ message: `e${i}` })) }));
  expect(many).toBe('e0; e1; e2');
  const wide = describeJsonRefusal(JSON.stringify({ a: { message: 'a' }, b: { message: 'b' }, c: { message: 'c' }, d: { message: 'd' }, e: { message: 'e' } }));
  expect(wide).toBe('a; b; c; d');
  expect(describeJsonRefusal(JSON.stringify({ a: { b: { c: { message: 'three deep' } } } }))).toBe('three deep');
  expect(describeJsonRefusal(JSON.stringify({ a: { b: { c: { d: { message: 'four deep' } } } } }))).toBeUndefined();
  expect(describeJsonRefusal(JSON.stringify({ message: 'big', pad: 'p'.repeat(300 * 1024) }))).toBeUndefined();
  expect(describeJsonRefusal('{"__proto__":{"message":"polluted"}}')).toBeUndefined();
  expect(({} as Record<string, unknown>).message).toBeUndefined();
  const deep = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
  expect(describeJsonRefusal(deep)).toBeUndefined();
});
