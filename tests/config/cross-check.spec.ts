import { test, expect } from '@playwright/test';
import { parseConfig } from '../../src/config/index.js';
import { brief, issuesOf, position } from './helpers.js';

const op = '{ tech: http, parameters: { url: "https://idp.test/token", method: POST } }';
const procedure = (name: string) => `  - name: ${name}\n    operations: [${op}]\n`;
const load = (text: string) => parseConfig(text, 'multiauth.yaml', { env: {} });
const problems = (text: string) => issuesOf(() => load(text));

test.describe('cross-checks', () => {
  test('procedure names are unique', () => {
    const issues = problems(`procedures:\n${procedure('login')}${procedure('login')}`);
    expect(brief(issues)).toEqual(['procedures[1].name: procedure "login" is already declared at procedures[0].name (line 2)']);
    expect(position(issues[0])).toBe('4:11');
  });

  test('users[].procedure names a declared procedure, with did-you-mean', () => {
    const text = `procedures:\n${procedure('login')}${procedure('refresh-token')}users:\n  - name: a\n    procedure: lgoin\n`;
    const issues = problems(text);
    expect(brief(issues)).toEqual(['users[0].procedure: unknown procedure "lgoin" (did you mean "login"?)']);
    expect(issues[0]?.hint).toBe('Declared procedures: login, refresh-token.');
    expect(position(issues[0])).toBe('8:16');
  });

  test('users[].refresh.procedure names a declared procedure', () => {
    const text = `procedures:\n${procedure('login')}users:\n  - name: a\n    procedure: login\n    refresh: { procedure: renew, keep: false }\n`;
    const issues = problems(text);
    expect(brief(issues)).toEqual(['users[0].refresh.procedure: unknown procedure "renew"']);
    expect(position(issues[0])).toBe('7:27');
  });

  test('with no procedures at all, the hint says where to declare one', () => {
    const issues = problems('users:\n  - name: a\n    procedure: login\n');
    expect(issues[0]?.hint).toBe('No procedure is declared: add it under "procedures".');
  });

  test('user names are unique across presets and users', () => {
    const text = [
      'presets:',
      '  - type: basic',
      '    users: [{ username: alice, password: a }, { username: bob, password: b }]',
      '  - type: headers',
      '    users: [{ username: alice, headers: { X-A: a } }]',
      'users:',
      '  - name: bob',
      '    credentials: { username: bob }',
    ].join('\n');
    const issues = problems(text);
    expect(brief(issues)).toEqual([
      'presets[1].users[0].username: user "alice" is already declared at presets[0].users[0].username (line 3)',
      'users[0].name: user "bob" is already declared at presets[0].users[1].username (line 3)',
    ]);
    expect(issues.map(position)).toEqual(['5:25', '7:11']);
  });

  test('queryParameters and query_parameters in one object is an error, wherever it is', () => {
    const text = [
      'presets:',
      '  - type: http',
      '    users: [{ username: p, queryParameters: { a: b }, query_parameters: { c: d } }]',
      '    request: { url: "https://idp.test", method: POST, query_parameters: {}, queryParameters: {} }',
      '    extractions: []',
      '    injections: []',
      'users:',
      '  - name: u',
      '    credentials: { queryParameters: [], query_parameters: [], body: { queryParameters: 1, query_parameters: 2 } }',
    ].join('\n');
    const issues = problems(text);
    expect(brief(issues)).toEqual([
      'presets[0].users[0].query_parameters: both "queryParameters" and "query_parameters" are given',
      'presets[0].request.query_parameters: both "queryParameters" and "query_parameters" are given',
      'users[0].credentials.query_parameters: both "queryParameters" and "query_parameters" are given',
    ]);
    expect(issues.map(position)).toEqual(['3:55', '4:55', '9:41']);
  });

  test('every regex compiles with RE2 (linear time), with the engine\'s message', () => {
    const text = [
      'presets:',
      '  - type: curl',
      '    users: [{ username: k, curl: "curl https://idp.test" }]',
      '    extractions: [{ location: header, key: Set-Cookie, name: sid, regex: "sid=(?P<v>[^;]+)(?P=v)" }]',
      '    injections: []',
      'procedures:',
      '  - name: p',
      '    operations:',
      '      - tech: http',
      '        parameters: { url: "https://idp.test", method: GET }',
      '        extractions: [{ location: body, key: t, name: t, regex: "(a" }, { location: body, key: u, name: u, regex: "^ok$" }]',
    ].join('\n');
    const issues = problems(text);
    expect(brief(issues)).toEqual([
      'presets[0].extractions[0].regex: invalid regular expression: invalid or unsupported Perl syntax: `(?P` (look-around and back-references need backtracking, which is refused: untrusted text could make it run for ever)',
      'procedures[0].operations[0].extractions[0].regex: invalid regular expression: missing closing ): `(a`',
    ]);
    expect(issues[0]?.hint).toContain('no look-around, no back-references');
    expect(issues.map(position)).toEqual(['4:74', '11:65']);
  });

  test('Python named groups and leading inline flags are accepted, as the runtime accepts them', () => {
    const text = [
      'presets:',
      '  - type: curl',
      '    users: [{ username: k, curl: "curl https://idp.test" }]',
      '    extractions: [{ location: header, key: Set-Cookie, name: sid, regex: "(?i)SID=(?P<value>[^;]+)" }]',
      '    injections: []',
    ].join('\n');
    const loaded = load(text);
    expect(loaded.config.presets[0]?.type).toBe('curl');
    expect(loaded.warnings).toEqual([]);
  });

  test('an empty extraction key is the whole URL (query with a regex) or the whole body', () => {
    const text = [
      'procedures:',
      '  - name: p',
      '    operations:',
      '      - tech: http',
      '        parameters: { url: "https://idp.test", method: GET }',
      '        extractions: [{ location: query, key: "", name: a, regex: "code=(\\\\w+)" }, { location: body, key: "", name: b, regex: "x" }, { location: query, key: "", name: c }, { location: header, key: "", name: d }, { location: body, key: "", name: e }]',
    ].join('\n');
    const issues = problems(text);
    expect(brief(issues)).toEqual([
      'procedures[0].operations[0].extractions[2].key: an empty key means "the whole URL" (location query, with a regex) or "the whole body" (location body)',
      'procedures[0].operations[0].extractions[3].key: an empty key means "the whole URL" (location query, with a regex) or "the whole body" (location body)',
    ]);
  });

  test('curl_sequence request regexes are checked too', () => {
    const text = [
      'presets:',
      '  - type: curl_sequence',
      '    users: [{ username: s }]',
      '    requests:',
      '      - curl: curl https://idp.test',
      '        extractions: [{ location: body, key: t, name: t, regex: "[a-" }]',
    ].join('\n');
    expect(brief(problems(text))).toEqual([
      'presets[0].requests[0].extractions[0].regex: invalid regular expression: missing closing ]: `[a-`',
    ]);
  });

  test('duplicate names in a {name, value} variables list are errors', () => {
    const text = [
      'procedures:',
      procedure('login').trimEnd(),
      'users:',
      '  - name: u',
      '    procedure: login',
      '    variables: [{ name: a, value: "1" }, { name: b, value: "2" }, { name: a, value: "3" }]',
      '    refresh:',
      '      keep: true',
      '      variables:',
      '        - { name: x, value: "1" }',
      '        - { name: x, value: "1" }',
    ].join('\n');
    const issues = problems(text);
    expect(brief(issues)).toEqual([
      'users[0].variables[2].name: variable "a" is declared twice, first at users[0].variables[0] (line 7)',
      'users[0].refresh.variables[1].name: variable "x" is declared twice, first at users[0].refresh.variables[0] (line 11)',
    ]);
  });

  test('a generic user with neither procedure nor credentials is a warning, not an error', () => {
    const loaded = load('users:\n  - name: idle\n  - name: empty\n    credentials: { headers: [] }\n  - name: ok\n    credentials: { username: ok }\n');
    expect(brief(loaded.warnings)).toEqual([
      'warning users[0]: user "idle" has neither a procedure nor credentials: it will send nothing',
      'warning users[1]: user "empty" has neither a procedure nor credentials: it will send nothing',
    ]);
    expect(loaded.warnings[0]?.hint).toBe('Add "procedure: <name>" or "credentials".');
  });

  test('all cross-check issues come at once, in file order', () => {
    const text = `procedures:\n${procedure('p')}${procedure('p')}users:\n  - name: a\n    procedure: q\n  - name: a\n    procedure: p\n`;
    expect(brief(problems(text))).toEqual([
      'procedures[1].name: procedure "p" is already declared at procedures[0].name (line 2)',
      'users[0].procedure: unknown procedure "q"',
      'users[1].name: user "a" is already declared at users[0].name (line 7)',
    ]);
  });
});
