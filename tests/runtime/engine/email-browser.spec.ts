import { test, expect } from '@playwright/test';
import { Redactor } from '../../../src/core/redactor.js';
import { signInUser } from '../../../src/runtime/engine/authenticate.js';
import { openMailReader, startMailSink, type MailReader, type MailSink } from '../../../src/runtime/mail/index.js';
import { sendTestMail } from '../../support/mail.js';
import { planFromYaml } from '../../support/plan.js';
import { readBody, startHttpServer, type RunningServer } from '../../support/servers/node-http.js';

/**
 * Item 4 of issue 37: one browser for the whole procedure. A page asks for an address, mails a code
 * bound to the browser that asked (a cookie), and shows the field the code is typed into; the
 * procedure is browser -> email -> browser, and the second browser step types the code into that
 * same page (it opens nothing itself).
 */
let sink: MailSink;
let reader: MailReader;
let site: RunningServer;
const pending = new Map<string, string>();
let counter = 0;

const page = (body: string) => `<!doctype html><html><body>${body}</body></html>`;

test.beforeAll(async () => {
  sink = await startMailSink({ host: '127.0.0.1', port: 0, apiPort: 0 });
  reader = await openMailReader({ kind: 'smtp', host: '127.0.0.1', port: sink.port, apiPort: sink.apiPort });
  site = await startHttpServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const cookie = /(?:^|;\s*)pending=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
    const form = new URLSearchParams(await readBody(req));
    res.setHeader('content-type', 'text/html');
    if (url.pathname === '/start') {
      res.end(page('<form method=post action=/send><input id=email name=email><button id=send>Send me a code</button></form>'));
    } else if (url.pathname === '/send') {
      const id = `p${++counter}`;
      const code = String(700000 + counter);
      pending.set(id, code);
      await sendTestMail(sink.port, { to: form.get('email') ?? '', subject: 'Your code', text: `Your code: ${code}` });
      res.setHeader('set-cookie', `pending=${id}; Path=/; HttpOnly`);
      res.end(page('<p>We sent you a code.</p><form method=post action=/check><input id=code name=code><button id=go>Sign in</button></form>'));
    } else if (url.pathname === '/check') {
      // The code counts only in the browser that asked for it.
      const ok = cookie !== undefined && pending.get(cookie) === form.get('code');
      if (ok) res.setHeader('set-cookie', `session=s-${cookie}; Path=/`);
      res.end(page(ok ? '<h1 id=welcome>Welcome</h1>' : '<h1 id=refused>Wrong code</h1>'));
    } else {
      res.statusCode = 404;
      res.end(page('not found'));
    }
  });
});

test.afterAll(async () => {
  await reader.close();
  await site.close();
  await sink.close();
});

test('browser -> email -> browser: the code is typed into the page that asked for it, in the same context', async ({ browser }) => {
  const plan = planFromYaml(`
mail: { smtp: { port: ${sink.port}, api_port: ${sink.apiPort} } }
procedures:
  - name: page-code
    operations:
      - tech: browser
        parameters:
          options: { wait_for_seconds: 10 }
          project:
            tests:
              - id: t1
                name: ask for a code
                commands:
                  - { id: c1, command: open, target: "${site.url}/start" }
                  - { id: c2, command: type, target: "id=email", value: "{{email}}" }
                  - { id: c3, command: click, target: "id=send" }
                  - { id: c4, command: waitForElementVisible, target: "id=code", value: "10000" }
      - tech: email
        parameters: { to: "{{email}}", subject: "Your code" }
        extractions: [{ name: code, location: body, regex: "code: (\\\\d{6})" }]
      - tech: browser
        parameters:
          options: { wait_for_seconds: 10 }
          project:
            tests:
              - id: t2
                name: type the code
                commands:
                  - { id: c5, command: type, target: "id=code", value: "{{code}}" }
                  - { id: c6, command: click, target: "id=go" }
                  - { id: c7, command: waitForElementVisible, target: "id=welcome", value: "10000" }
users:
  - { name: carol, procedure: page-code, variables: [{ name: email, value: carol@example.test }] }
`);
  const contextsBefore = browser.contexts().length;
  const produced = await signInUser(plan, 'carol', { redactor: new Redactor(), browser, mail: async () => reader });
  const session = produced.cookies.find((c) => c.name === 'session');
  expect(session?.value).toMatch(/^s-p\d+$/);
  // One context for the procedure, closed at its end; its cookies once in the session.
  expect(produced.cookies.filter((c) => c.name === 'pending')).toHaveLength(1);
  expect(browser.contexts().length).toBe(contextsBefore);
});
