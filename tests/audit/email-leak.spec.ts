import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startMailSink } from '../../src/runtime/mail/index.js';
import { runCliAsync } from '../support/cli.js';
import { runMain } from '../support/cli-in-process.js';
import { test, expect } from '../support/demo.js';
import { freePort } from '../support/ports.js';
import { removeTempDirs, tempDir } from '../support/temp-files.js';
import { findLeaks, type OutputFile } from './secrets.js';

// Issue 37, "Done when": the codes, links and bodies of the mails a sign-in read appear in nothing
// the CLI prints (sessions, verbose steps, JSON, explain, check). The mails
// are the demo server's, as the sink received them; the search is shown to find them in the mails.

test.afterAll(removeTempDirs);

function config(url: string, smtp: number, api: number): string {
  return `
mail:
  smtp: { port: ${smtp}, api_port: ${api} }
presets:
  - type: email_code
    start: { url: "${url}/email-code/start", method: POST, body: { email: "{{email}}" } }
    code: "sign-in code is (\\\\d{6})"
    verify: { url: "${url}/email-code/verify", method: POST, body: { email: "{{email}}", code: "{{code}}" } }
    extractions: [{ name: access_token, location: body, key: access_token }]
    users: [{ username: alice, email: alice@demo.test }]
  - type: email_link
    start: { url: "${url}/magic-link/start", method: POST, body: { email: "{{email}}" } }
    link: "http://localhost:*/t/click"
    users: [{ username: dave, email: dave@demo.test }]
users:
  - { name: tina, procedure: mail-2fa, credentials: { username: tina, password: tina-password } }
procedures:
  - name: mail-2fa
    operations:
      - tech: http
        parameters: { url: "${url}/mail-2fa/session", method: POST, body: { username: "{{username}}", password: "{{password}}" }, accept_status: [403] }
      - tech: email
        parameters: { to: tina@demo.test }
        extractions: [{ name: code, location: header, key: Subject, regex: "(\\\\d{6}) is your" }]
      - tech: http
        parameters: { url: "${url}/mail-2fa/session/verify", method: PUT, body: { token: "{{code}}" } }
`;
}

// The first login (alice's) runs the published bin in a child process, as users run it; the other commands run
// `main` in this process (the bin only hands it the process's streams): a Node start less each (issue 36).
test('codes, links and mail bodies appear in no CLI output (login --verbose and --json, check, validate --explain)', async ({ demo }) => {
  test.setTimeout(240_000);
  demo.clear();
  const sink = await startMailSink({ host: '127.0.0.1', port: await freePort(), apiPort: await freePort() });
  demo.mailTo({ port: sink.port });
  const outputs: OutputFile[] = [];
  try {
    const dir = tempDir();
    writeFileSync(join(dir, 'multiauth.yaml'), config(demo.url, sink.port, sink.apiPort));
    for (const args of [['login', 'alice', '--json', '--verbose'], ['login', 'dave', '--verbose'], ['login', 'tina', '--json', '--verbose'], ['check'], ['validate', '--explain']]) {
      const run = args[1] === 'alice' ? await runCliAsync(args, { cwd: dir }) : await runMain(args, { cwd: dir });
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(0);
      outputs.push({ name: `${args.join(' ')} (stdout)`, text: run.stdout }, { name: `${args.join(' ')} (stderr)`, text: run.stderr });
    }
  } finally {
    demo.mailTo(undefined);
  }
  const mails = sink.store.after(0).map((stored) => stored.message);
  await sink.close();
  // alice, dave and tina by login, then all three again by check (it signs in without the cache).
  expect(mails.length).toBeGreaterThanOrEqual(3);
  const planted: string[] = [];
  for (const mail of mails) {
    const body = mail.text ?? mail.html ?? '';
    planted.push(body);
    for (const code of body.matchAll(/code is (?:<strong>|<b>)?(\d{6})/g)) planted.push(code[1] as string);
    for (const link of (mail.html ?? '').matchAll(/href="([^"]*\/(?:t\/click|magic-link\/verify)[^"]*)"/g)) {
      const href = (link[1] as string).replaceAll('&amp;', '&');
      planted.push(href, /token%3D(ml_[0-9a-f]{32})/.exec(href)?.[1] ?? /token=(ml_[0-9a-f]{32})/.exec(href)?.[1] ?? 'no token');
    }
  }
  expect(planted.filter((value) => /^\d{6}$/.test(value)).length).toBeGreaterThanOrEqual(3);
  expect(planted.filter((value) => value.startsWith('ml_')).length).toBeGreaterThanOrEqual(1);
  expect(findLeaks(outputs, planted)).toEqual([]);
  // The search itself works: it finds every planted value in the mails' own text.
  expect(findLeaks([{ name: 'mails', text: mails.map((mail) => `${mail.text ?? ''}${mail.html ?? ''}${mail.subject}`).join('\n').replaceAll('&amp;', '&') }], planted)).toHaveLength(planted.length);
});
