import { test, expect } from '@playwright/test';
import { thrown } from '../../support/errors.js';
import type { PlanExtraction } from '../../../src/compile/plan.js';
import type { Observation, ObservedResponse } from '../../../src/runtime/http/observation.js';
import { emptyObservation } from '../../../src/runtime/http/observation.js';
import { extract } from '../../../src/runtime/engine/extract/index.js';

const where = { user: 'alice', procedure: 'login', step: 0 };

function ex(extra: Partial<PlanExtraction> & Pick<PlanExtraction, 'location' | 'key'>): PlanExtraction {
  return { name: 'token', origin: ['procedures', 0, 'operations', 0, 'extractions', 0], ...extra };
}

function obs(extra: Partial<Observation>): Observation {
  return { ...emptyObservation(), ...extra };
}

function response(extra: Partial<ObservedResponse>): ObservedResponse {
  return { url: 'https://auth.test/token', status: 200, headers: [], ...extra };
}

test.describe('header', () => {
  test('name is case-insensitive; the latest response that has it wins', () => {
    const o = obs({
      responses: [response({ headers: [['X-Token', 'old']] }), response({ headers: [['other', '1']] }), response({ headers: [['x-token', 'new']] })],
    });
    expect(extract(o, ex({ location: 'header', key: 'X-TOKEN' }), where)).toBe('new');
  });

  test('several values of one message are joined with ", "', () => {
    const o = obs({ responses: [response({ headers: [['X-Role', 'a'], ['Content-Type', 'x'], ['x-role', 'b']] })] });
    expect(extract(o, ex({ location: 'header', key: 'x-role' }), where)).toBe('a, b');
  });

  test('falls back to the requests, latest first', () => {
    const o = obs({
      requests: [
        { method: 'GET', url: 'https://a.test/1', headers: [['Authorization', 'Bearer first']] },
        { method: 'GET', url: 'https://a.test/2', headers: [['authorization', 'Bearer second']] },
      ],
      responses: [response({ headers: [['Content-Type', 'text/html']] })],
    });
    expect(extract(o, ex({ location: 'header', key: 'Authorization', regex: 'Bearer (.+)' }), where)).toBe('second');
  });

  test('Set-Cookie values stay apart and the first regex match wins', () => {
    const o = obs({
      responses: [
        response({ status: 302, headers: [['Set-Cookie', 'session=early; Path=/']] }),
        response({ headers: [['Set-Cookie', 'lang=en; Path=/'], ['set-cookie', 'session=abc, def; HttpOnly'], ['Set-Cookie', 'session=later']] }),
      ],
    });
    expect(extract(o, ex({ location: 'header', key: 'Set-Cookie', regex: '^session=([^;]+)' }), where)).toBe('abc, def');
    expect(extract(o, ex({ location: 'header', key: 'set-cookie' }), where)).toBe('lang=en; Path=/');
  });

  test('an empty header value is found', () => {
    const o = obs({ responses: [response({ headers: [['X-Empty', '']] })] });
    expect(extract(o, ex({ location: 'header', key: 'x-empty' }), where)).toBe('');
  });
});

test.describe('cookie', () => {
  test('by exact name, the latest wins', () => {
    const o = obs({ cookies: [{ name: 'sid', value: 'one' }, { name: 'SID', value: 'upper' }, { name: 'sid', value: 'two' }] });
    expect(extract(o, ex({ location: 'cookie', key: 'sid' }), where)).toBe('two');
    expect(extract(o, ex({ location: 'cookie', key: 'SID' }), where)).toBe('upper');
  });
});

test.describe('body', () => {
  test('key "" is the latest body whole: JSON as its JSON text, other text as it is; a regex narrows it', () => {
    const json = obs({ responses: [response({ body: '{"old":1}' }), response({ body: '{ "challenge": "Q0g", "allowCredentials": [] }' })] });
    expect(extract(json, ex({ location: 'body', key: '' }), where)).toBe('{"challenge":"Q0g","allowCredentials":[]}');
    expect(extract(json, ex({ location: 'body', key: '', regex: '"challenge":"(\\w+)"' }), where)).toBe('Q0g');
    const text = obs({ responses: [response({ body: 'plain-token' })] });
    expect(extract(text, ex({ location: 'body', key: '' }), where)).toBe('plain-token');
    expect(thrown(() => extract(obs({}), ex({ location: 'body', key: '' }), where)).code).toBe('EXTRACTION_NOT_FOUND');
  });

  test('a dot path resolves through objects and arrays', () => {
    const o = obs({ responses: [response({ body: JSON.stringify({ data: { items: [{ id: 7 }, { id: 8, token: 'deep' }] } }) })] });
    expect(extract(o, ex({ location: 'body', key: 'data.items.1.token' }), where)).toBe('deep');
    expect(extract(o, ex({ location: 'body', key: 'data.items.0.id' }), where)).toBe('7');
    expect(extract(o, ex({ location: 'body', key: 'data.items.0' }), where)).toBe('{"id":7}');
  });

  test('the latest response whose JSON resolves the path wins', () => {
    const o = obs({
      responses: [response({ body: '{"access_token":"old"}' }), response({ body: '{"access_token":"new"}' }), response({ body: '{"other":1}' })],
    });
    expect(extract(o, ex({ location: 'body', key: 'access_token' }), where)).toBe('new');
  });

  test('a path that resolves to null counts as not found: an earlier response that has a value gives it', () => {
    const o = obs({ responses: [response({ body: '{"access_token":"earlier"}' }), response({ body: '{"access_token":null}' })] });
    expect(extract(o, ex({ location: 'body', key: 'access_token' }), where)).toBe('earlier');
  });

  test('a body is parsed once per step, and again when the observation gains a response', () => {
    const o = obs({ responses: [response({ body: '{"access_token":"first","expires_in":60}' })] });
    expect(extract(o, ex({ location: 'body', key: 'access_token' }), where)).toBe('first');
    expect(extract(o, ex({ name: 'expires_in', location: 'body', key: 'expires_in' }), where)).toBe('60');
    o.responses.push(response({ body: '{"access_token":"second"}' }));
    expect(extract(o, ex({ location: 'body', key: 'access_token' }), where)).toBe('second');
    const other = obs({ responses: [response({ body: '{"access_token":"other"}' })] });
    expect(extract(other, ex({ location: 'body', key: 'access_token' }), where)).toBe('other');
  });

  test('else the first property named key, depth-first in document order', () => {
    const o = obs({ responses: [response({ body: JSON.stringify({ a: { b: { token: 'deep-first' } }, token: null, c: { token: 'later' } }) })] });
    expect(extract(o, ex({ location: 'body', key: 'token' }), where)).toBe('deep-first');
    const arrays = obs({ responses: [response({ body: JSON.stringify([{ x: 1 }, { y: { token: 'in-array' } }]) })] });
    expect(extract(arrays, ex({ location: 'body', key: 'token' }), where)).toBe('in-array');
  });

  test('a top-level key is found before a deeper one of the same name', () => {
    const o = obs({ responses: [response({ body: JSON.stringify({ nested: { id: 'deep' }, id: 'top' }) })] });
    expect(extract(o, ex({ location: 'body', key: 'id' }), where)).toBe('top');
  });

  test('a key with a dot that exists whole is read whole', () => {
    const o = obs({ responses: [response({ body: JSON.stringify({ 'a.b': 'whole', a: { b: 'path' } }) })] });
    expect(extract(o, ex({ location: 'body', key: 'a.b' }), where)).toBe('whole');
  });

  test('a non-JSON body is the whole text, then the regex narrows it', () => {
    const o = obs({ responses: [response({ body: 'token=abc123&expires=60' })] });
    expect(extract(o, ex({ location: 'body', key: 'anything' }), where)).toBe('token=abc123&expires=60');
    expect(extract(o, ex({ location: 'body', key: 'anything', regex: 'token=(\\w+)' }), where)).toBe('abc123');
  });

  test('an empty JSON string is found', () => {
    const o = obs({ responses: [response({ body: '{"token":""}' })] });
    expect(extract(o, ex({ location: 'body', key: 'token' }), where)).toBe('');
  });

  test('first-key-ending-token: the first string under key whose name ends with token, ignoring case', () => {
    const body = { data: { login: { user: { id: 1, tokenCount: 3 }, AccessToken: 'gql-token', refreshToken: 'r' } }, token: 'outside' };
    const o = obs({ responses: [response({ body: JSON.stringify(body) })] });
    expect(extract(o, ex({ location: 'body', key: 'data', match: 'first-key-ending-token' }), where)).toBe('gql-token');
    const none = obs({ responses: [response({ body: JSON.stringify({ data: { login: { token: 5 } }, token: 'outside' }) })] });
    const error = thrown(() => extract(none, ex({ location: 'body', key: 'data', match: 'first-key-ending-token' }), where));
    expect(error.message).toContain('ends with "token"');
  });
});

test.describe('query', () => {
  test('the final URL after redirects wins', () => {
    const o = obs({
      requests: [{ method: 'GET', url: 'https://a.test/authorize?code=request', headers: [] }],
      responses: [
        response({ url: 'https://a.test/authorize?code=request', status: 302, headers: [['Location', '/cb?code=location']] }),
        response({ url: 'https://a.test/cb?code=final%20one' }),
      ],
      urls: ['https://a.test/authorize?code=request', 'https://a.test/cb?code=final%20one'],
    });
    expect(extract(o, ex({ location: 'query', key: 'code' }), where)).toBe('final one');
  });

  test('then any Location header in the redirect chain (relative ones resolved)', () => {
    const o = obs({
      requests: [{ method: 'GET', url: 'https://a.test/authorize?state=s', headers: [] }],
      responses: [
        response({ url: 'https://a.test/authorize?state=s', status: 302, headers: [['location', '/cb?code=from-location&state=s']] }),
        response({ url: 'https://a.test/cb', status: 200 }),
      ],
      urls: ['https://a.test/authorize?state=s', 'https://a.test/cb'],
    });
    expect(extract(o, ex({ location: 'query', key: 'code' }), where)).toBe('from-location');
  });

  test('a redirect to a custom scheme that was not followed is read from its Location', () => {
    const o = obs({
      requests: [{ method: 'POST', url: 'https://a.test/login', headers: [] }],
      responses: [response({ url: 'https://a.test/login', status: 302, headers: [['Location', 'myapp://callback?code=app-code']] })],
    });
    expect(extract(o, ex({ location: 'query', key: 'code' }), where)).toBe('app-code');
  });

  test('then the request URL', () => {
    const o = obs({
      requests: [{ method: 'GET', url: 'https://a.test/x?ticket=req', headers: [] }],
      responses: [response({ url: 'https://a.test/y' })],
    });
    expect(extract(o, ex({ location: 'query', key: 'ticket' }), where)).toBe('req');
  });

  test('a token in the URL fragment (implicit flow), also inside a hash route', () => {
    const o = obs({ urls: ['https://app.test/login', 'https://app.test/cb#access_token=frag%2Btok&token_type=bearer'] });
    expect(extract(o, ex({ location: 'query', key: 'access_token' }), where)).toBe('frag+tok');
    const route = obs({ urls: ['https://app.test/#/callback?code=hash-route'] });
    expect(extract(route, ex({ location: 'query', key: 'code' }), where)).toBe('hash-route');
  });
});

test.describe('regex', () => {
  const o = obs({ responses: [response({ headers: [['X-Data', 'id=42; token=abc; exp=9']] })] });

  test('the first capture group', () => {
    expect(extract(o, ex({ location: 'header', key: 'x-data', regex: 'token=([a-z]+); exp=(\\d)' }), where)).toBe('abc');
  });

  test('a group named value wins over the first group', () => {
    expect(extract(o, ex({ location: 'header', key: 'x-data', regex: 'id=(\\d+); token=(?<value>[a-z]+)' }), where)).toBe('abc');
  });

  test('Python-style named groups and leading inline flags are accepted', () => {
    expect(extract(o, ex({ location: 'header', key: 'x-data', regex: '(?i)TOKEN=(?P<value>[A-Z]+)' }), where)).toBe('abc');
  });

  test('without groups, the whole match', () => {
    expect(extract(o, ex({ location: 'header', key: 'x-data', regex: '\\d+' }), where)).toBe('42');
  });

  test('no match is an error naming the regex, not the value', () => {
    const error = thrown(() => extract(o, ex({ location: 'header', key: 'x-data', regex: 'missing=(\\w+)' }), where));
    expect(error.code).toBe('EXTRACTION_NOT_FOUND');
    const text = error.render();
    // Issue 16: this said "the value found … matched the regex" when it did not match.
    expect(error.message).toBe('extraction "token" found nothing: the value found for header "x-data" does not match the regex /missing=(\\w+)/');
    expect(text).not.toContain('abc');
    expect(text).not.toContain('id=42');
  });

  test('no match among several values says none matches', () => {
    const several = obs({ responses: [response({ headers: [['X-Data', 'a=1']] }), response({ headers: [['x-data', 'b=2']] })] });
    const error = thrown(() => extract(several, ex({ location: 'header', key: 'x-data', regex: 'c=(\\d)' }), where));
    expect(error.message).toBe('extraction "token" found nothing: none of the 2 values found for header "x-data" matches the regex /c=(\\d)/');
  });

  test('an invalid regex is a config error at its path', () => {
    const error = thrown(() => extract(o, ex({ location: 'header', key: 'x-data', regex: '(' }), where));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.path).toEqual(['procedures', 0, 'operations', 0, 'extractions', 0, 'regex']);
  });
});

test.describe('not found', () => {
  const secret = 'sup3r-s3cret-token';
  const o = obs({
    requests: [{ method: 'POST', url: 'https://a.test/login', headers: [['X-Req', secret]] }],
    responses: [response({ headers: [['Content-Type', 'application/json'], ['X-Session', secret]], body: JSON.stringify({ access: secret, meta: { n: 1 } }) })],
    cookies: [{ name: 'sid', value: secret }],
    urls: [`https://a.test/cb?state=${secret}`],
  });

  for (const [location, expected] of [
    ['header', 'response headers: content-type, x-session'],
    ['cookie', 'cookies set: sid'],
    ['body', 'JSON, top-level keys access, meta'],
    ['query', ': state'],
  ] as const) {
    test(`${location}: names the extraction, user, procedure and step, and lists names seen, never values`, () => {
      const error = thrown(() => extract(o, ex({ location, key: 'nope', name: 'my_var' }), where));
      expect(error.code).toBe('EXTRACTION_NOT_FOUND');
      expect(error.context).toEqual(where);
      expect(error.path).toEqual(['procedures', 0, 'operations', 0, 'extractions', 0]);
      const text = error.render();
      expect(text).toContain('extraction "my_var"');
      expect(text).toContain(`location ${location}, key nope`);
      expect(text).toContain('user "alice", procedure "login", step 1');
      expect(text).toContain(expected);
      expect(text).not.toContain(secret);
    });
  }

  test('optional extractions return undefined instead', () => {
    expect(extract(o, ex({ location: 'body', key: 'refresh_token', optional: true }), where)).toBeUndefined();
    expect(extract(o, ex({ location: 'header', key: 'x-session', regex: 'zzz', optional: true }), where)).toBeUndefined();
  });

  // Issue 25: a dot path that stops half-way showed only the top-level keys.
  test('a dot path that stops half-way shows the path walked and the keys where it stopped, never values', () => {
    const body = { data: { auth: { token_type: secret, expires_in: 3600 } }, list: [secret] };
    const o = obs({ responses: [response({ headers: [['Content-Type', 'application/json']], body: JSON.stringify(body) })] });
    const error = thrown(() => extract(o, ex({ location: 'body', key: 'data.auth.access_token' }), where));
    expect(error.details).toContain('seen: latest response body: JSON, top-level keys data, list; path walked data.auth, no "access_token" there: keys token_type, expires_in');
    const inArray = thrown(() => extract(o, ex({ location: 'body', key: 'list.3.id' }), where));
    expect(inArray.details).toContain('seen: latest response body: JSON, top-level keys data, list; path walked list, no "3" there: an array of 1 item');
    const atString = thrown(() => extract(o, ex({ location: 'body', key: 'data.auth.token_type.value' }), where));
    expect(atString.render()).toContain('path walked data.auth.token_type, no "value" there: a string');
    expect(error.render() + inArray.render() + atString.render()).not.toContain(secret);
  });

  test('the keys shown are bounded: at most 30, each cut short', () => {
    const wide = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`${'k'.repeat(100)}${i}`, i]));
    const o = obs({ responses: [response({ body: JSON.stringify({ data: wide }) })] });
    const line = thrown(() => extract(o, ex({ location: 'body', key: 'data.token' }), where)).details.find((d) => d.includes('path walked')) ?? '';
    expect(line).toContain(`keys ${'k'.repeat(60)}..., `);
    expect(line).toMatch(/, \.\.\. and 970 more$/);
    expect(line.length).toBeLessThan(2500);
  });

  test('an empty observation reports no bodies', () => {
    const error = thrown(() => extract(emptyObservation(), ex({ location: 'body', key: 'x' }), where));
    expect(error.render()).toContain('response bodies: (none)');
  });
});

test.describe('browser storage', () => {
  const storage = obs({
    storage: [
      { origin: 'https://idp.test', localStorage: [{ name: 'token', value: 'idp' }] },
      { origin: 'https://app.test', localStorage: [{ name: 'token', value: 'app' }], sessionStorage: [{ name: 'msal.idtoken', value: 'id-1' }] },
    ],
  });

  test('reads an item of the origin given, or of the first origin that has it', () => {
    expect(extract(storage, ex({ location: 'browser_local_storage', key: 'token', storageOrigin: 'https://app.test' }), where)).toBe('app');
    expect(extract(storage, ex({ location: 'browser_local_storage', key: 'token' }), where)).toBe('idp');
    expect(extract(storage, ex({ location: 'browser_session_storage', key: 'msal.idtoken' }), where)).toBe('id-1');
  });

  test('nothing found names the items and origins seen, never values; an HTTP step has no storage', () => {
    const error = thrown(() => extract(storage, ex({ location: 'browser_session_storage', key: 'token', storageOrigin: 'https://app.test' }), where));
    expect(error.message).toBe('extraction "token" found nothing: no sessionStorage item "token" in the exchange');
    expect(error.details).toContain('seen: sessionStorage of https://app.test: msal.idtoken');
    expect(error.details).toContain('seen: origins with storage: https://idp.test, https://app.test');
    expect(error.render()).not.toContain('id-1');
    const http = thrown(() => extract(obs({}), ex({ location: 'browser_local_storage', key: 'token' }), where));
    expect(http.message).toBe('extraction "token" found nothing: no localStorage item "token": only a browser step leaves browser storage to read; this step sent HTTP requests');
  });
});

// Issue 24: phpMyAdmin answers a wrong password with `pmaAuth-1=deleted; Max-Age=0`.
test('a cookie the server deleted is never a value, nor is its earlier value at the same domain and path', () => {
  const observation: Observation = {
    ...emptyObservation(),
    cookies: [
      { name: 'pmaAuth-1', value: 'first-value', domain: 'a.test', path: '/' },
      { name: 'pmaAuth-1', value: 'other-path', domain: 'a.test', path: '/other' },
      { name: 'pmaAuth-1', value: 'deleted', domain: 'a.test', path: '/', expires: 0 },
      { name: 'gone', value: 'deleted', domain: 'a.test', path: '/', expires: 1 },
    ],
  };
  const cookie = (key: string): PlanExtraction => ({ name: 'session', location: 'cookie', key, origin: [] });
  expect(extract(observation, cookie('pmaAuth-1'), where)).toBe('other-path');
  const error = thrown(() => extract(observation, cookie('gone'), where));
  expect(error.message).toBe('extraction "session" found nothing: no cookie "gone": the server deleted it (Max-Age=0 or an expiry in the past), as servers do when they refuse a sign-in');
  expect(error.details).toContain('seen: cookies deleted by the server: pmaAuth-1, gone');
  expect(error.details.join('\n')).not.toContain('deleted,');
});

test.describe('body regex in markup (issue 35, item 5)', () => {
  test('a hidden input\'s value is read decoded (&amp; and the rest), as a browser sends it; plain text stays as it is', () => {
    const page = obs({ responses: [response({ headers: [['Content-Type', 'text/html']], body: '<!doctype html><input type="hidden" name="AuthState" value="_ab12:https://idp.test/sso?a=1&amp;b=&quot;2&quot;&#x26;c=3">' })] });
    expect(extract(page, ex({ location: 'body', key: 'AuthState', regex: '"AuthState"[^>]*?\\svalue="([^"]*)"' }), where)).toBe('_ab12:https://idp.test/sso?a=1&b="2"&c=3');
    const text = obs({ responses: [response({ headers: [['Content-Type', 'text/plain']], body: 'state=a&amp;b' })] });
    expect(extract(text, ex({ location: 'body', key: 'state', regex: 'state=(\\S+)' }), where)).toBe('a&amp;b');
  });
});
