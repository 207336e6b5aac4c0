import { test, expect } from '@playwright/test';
import { parseConfig } from '../../src/config/index.js';
import { compile } from '../../src/compile/index.js';
import { brief, issuesOf, position } from './helpers.js';

const load = (text: string) => parseConfig(text, 'multiauth.yaml', { env: {} });
const problems = (text: string) => issuesOf(() => load(text));

/** A procedure: start request, the mail, the verify request. */
const CODE_PROCEDURE = [
  'procedures:',
  '  - name: code-login',
  '    operations:',
  '      - tech: http',
  '        parameters: { url: "https://app.test/auth/code", method: POST, body: { email: "{{email}}" }, accept_status: [403] }',
  '      - tech: email',
  '        parameters: { to: "{{email}}", subject: "(?i)your code", wait_for_seconds: 5 }',
  '        extractions:',
  '          - { name: code, location: body, regex: "code: (\\\\d{6})" }',
  '          - { name: subject, location: header, key: Subject }',
  '      - tech: http',
  '        parameters: { url: "https://app.test/auth/verify", method: POST, body: { code: "{{code}}" } }',
  'users:',
  '  - name: alice',
  '    procedure: code-login',
  '    variables: [{ name: email, value: alice@example.test }]',
].join('\n');

test.describe('tech: email and top-level mail', () => {
  test('a procedure with an email step compiles: the step, mail defaults, accept_status, a single-use verify', () => {
    const plan = compile(load(`mail: { smtp: { port: 2525 } }\n${CODE_PROCEDURE}\n`).config);
    expect(plan.mail).toEqual({ kind: 'smtp', host: '127.0.0.1', port: 2525, apiPort: 2526 });
    const [start, mail, verify] = plan.procedures['code-login']!.operations;
    expect(start).toMatchObject({ tech: 'http', request: { acceptStatus: [403] } });
    expect(start).not.toHaveProperty('singleUse');
    expect(mail).toMatchObject({ tech: 'email', to: '{{email}}', subject: '(?i)your code', waitForSeconds: 5 });
    expect(mail!.extractions.map((e) => [e.name, e.location, e.key])).toEqual([['code', 'body', ''], ['subject', 'header', 'Subject']]);
    // The code came from the mail: the verify request is sent once, never retried.
    expect(verify).toMatchObject({ tech: 'http', singleUse: true });
  });

  test('mail sources: smtp with host and api_port, mailpit and maildev URLs', () => {
    const users = 'users: [{ name: a, credentials: { username: a } }]\n';
    expect(compile(load(`mail: { smtp: { host: 0.0.0.0, port: 2525, api_port: 9000 } }\n${users}`).config).mail)
      .toEqual({ kind: 'smtp', host: '0.0.0.0', port: 2525, apiPort: 9000 });
    expect(compile(load(`mail: { mailpit: "http://127.0.0.1:8025/" }\n${users}`).config).mail).toEqual({ kind: 'mailpit', url: 'http://127.0.0.1:8025' });
    expect(compile(load(`mail: { maildev: "http://127.0.0.1:1080" }\n${users}`).config).mail).toEqual({ kind: 'maildev', url: 'http://127.0.0.1:1080' });
  });

  test('mail is exactly one source', () => {
    for (const mail of ['{ smtp: { port: 2525 }, mailpit: "http://127.0.0.1:8025" }', '{}']) {
      const issues = problems(`mail: ${mail}\n`);
      expect(brief(issues)).toEqual(['mail: give exactly one of smtp, mailpit or maildev']);
      expect(position(issues[0])).toBe('1:7');
    }
    expect(brief(problems('mail: { mailpit: "127.0.0.1:8025" }\n'))).toEqual(['mail.mailpit: expected an http(s) URL such as http://127.0.0.1:8025']);
  });

  test('tech: email without a top-level mail is an error at file:line:col that names mail', () => {
    const issues = problems(`${CODE_PROCEDURE}\n`);
    expect(brief(issues)).toEqual(['procedures[0].operations[1].tech: a tech: email step reads mail, and the config has no top-level "mail" saying where']);
    expect(position(issues[0])).toBe('6:15');
    expect(issues[0]!.hint).toContain('mail: { smtp: { port: 2525 } }');
  });

  test('subject and from are RE2 regexes, checked when the config loads', () => {
    const text = `mail: { smtp: { port: 2525 } }\n${CODE_PROCEDURE.replace('subject: "(?i)your code"', 'subject: "(?=x)code", from: "a(b"')}\n`;
    const issues = problems(text);
    expect(brief(issues).map((line) => line.split(':')[0])).toEqual(['procedures[0].operations[1].parameters.subject', 'procedures[0].operations[1].parameters.from']);
    expect(issues.map(position)).toEqual(['8:49', '8:68']);
  });

  test('a mail step reads body, header, link or query; link belongs to mail steps; a mail body has no keys', () => {
    const text = [
      'mail: { smtp: { port: 2525 } }',
      'procedures:',
      '  - name: p',
      '    operations:',
      '      - tech: email',
      '        parameters: { to: a@b.test }',
      '        extractions:',
      '          - { name: c, location: cookie, key: sid }',
      '          - { name: b, location: body, key: data.token }',
      '          - { name: h, location: header }',
      '          - { name: l, location: link, key: "verify/**" }',
      '      - tech: http',
      '        parameters: { url: "https://app.test/x", method: GET }',
      '        extractions: [{ name: x, location: link, key: "/x" }]',
    ].join('\n');
    expect(brief(problems(text))).toEqual([
      'procedures[0].operations[0].extractions[0].location: a mail has no cookie: an email step reads body, header, link or query',
      'procedures[0].operations[0].extractions[1].key: a mail\'s body has no keys: it is the mail\'s text',
      'procedures[0].operations[0].extractions[2]: an extraction from a mail\'s header needs a "key"',
      'procedures[0].operations[0].extractions[3].key: a link\'s key is a glob of its path (/verify/**) or of its whole URL (https://app.example.test/verify/**)',
      'procedures[0].operations[1].extractions[0].location: location link reads a link of a mail: only a tech: email operation has one',
    ]);
  });

  test('an extraction other than body still needs a key', () => {
    const text = 'procedures:\n  - name: p\n    operations:\n      - tech: http\n        parameters: { url: "https://app.test/x", method: GET }\n        extractions: [{ name: t, location: header }]\n';
    expect(brief(problems(text))).toEqual(['procedures[0].operations[0].extractions[0]: an extraction from header needs a "key"']);
  });

  test('accept_status: statuses 100-599; not on a digest\'s first request', () => {
    const bad = 'procedures:\n  - name: p\n    operations:\n      - tech: http\n        parameters: { url: "https://app.test/x", method: GET, accept_status: [700] }\n';
    expect(problems(bad)[0]!.path).toEqual(['procedures', 0, 'operations', 0, 'parameters', 'accept_status', 0]);
    const digest = 'procedures:\n  - name: p\n    operations:\n      - tech: digest\n        parameters: { first_request: { url: "https://app.test/x", method: GET, accept_status: [401] } }\n';
    expect(brief(problems(digest))).toEqual(['procedures[0].operations[0].parameters.first_request.accept_status: accept_status applies to tech: http requests; a digest\'s first request is answered 401 by design']);
  });
});

test.describe('email presets', () => {
  const presets = [
    'mail: { mailpit: "http://127.0.0.1:8025" }',
    'presets:',
    '  - type: email_code',
    '    start: { url: "https://app.test/session", method: POST, body: { username: "{{email}}", password: "{{password}}" }, accept_status: [403] }',
    '    mail: { subject: "verification code" }',
    '    code: "(\\\\d{6}) is your"',
    '    code_in: subject',
    '    verify: { url: "https://app.test/session/verify", method: PUT, body: { token: "{{code}}" } }',
    '    users: [{ username: staff, email: staff@example.test, password: pw }]',
    '  - type: email_link',
    '    start: { url: "https://app.test/magic", method: POST, body: { email: "{{email}}" } }',
    '    link: "/members/**"',
    '    users: [{ username: member, email: member@example.test }]',
  ].join('\n');

  test('email_code compiles to start -> email (code by its context) -> verify (sent once)', () => {
    const plan = compile(load(`${presets}\n`).config);
    const staff = plan.users.find((u) => u.name === 'staff')!;
    expect(staff.variables).toEqual({ email: 'staff@example.test' });
    expect(staff.credentials).toMatchObject({ username: 'staff', password: 'pw', basic: 'none' });
    const operations = plan.procedures[staff.procedure!]!.operations;
    expect(operations.map((o) => o.tech)).toEqual(['http', 'email', 'http']);
    expect(operations[0]).toMatchObject({ request: { acceptStatus: [403], method: 'POST' } });
    expect(operations[1]).toMatchObject({ to: '{{email}}', subject: 'verification code', waitForSeconds: 30 });
    expect(operations[1]!.extractions).toMatchObject([{ name: 'code', location: 'header', key: 'Subject', regex: '(\\d{6}) is your' }]);
    expect(operations[2]).toMatchObject({ singleUse: true, request: { method: 'PUT' } });
  });

  test('email_link compiles to start -> email (the link its glob names) -> GET of the link, sent once', () => {
    const plan = compile(load(`${presets}\n`).config);
    const member = plan.users.find((u) => u.name === 'member')!;
    const operations = plan.procedures[member.procedure!]!.operations;
    expect(operations[1]!.extractions).toMatchObject([{ name: 'magic_link', location: 'link', key: '/members/**' }]);
    expect(operations[2]).toMatchObject({ tech: 'http', singleUse: true, request: { url: '{{magic_link}}', method: 'GET' } });
  });

  test('an email preset without a top-level mail, or with a bad code regex, is located', () => {
    const issues = problems(`${presets.split('\n').slice(1).join('\n').replace('(\\\\d{6}) is your', '(\\\\d{6}')}\n`);
    expect(brief(issues)).toEqual([
      'presets[0].type: an email_code preset reads mail, and the config has no top-level "mail" saying where',
      expect.stringMatching(/^presets\[0\]\.code: invalid regular expression/),
      'presets[1].type: an email_link preset reads mail, and the config has no top-level "mail" saying where',
    ]);
    expect(issues.map(position)).toEqual(['2:11', '5:11', '9:11']);
  });
});
