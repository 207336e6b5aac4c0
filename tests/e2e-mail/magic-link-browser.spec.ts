import { Redactor } from '../../src/core/redactor.js';
import { signInUser } from '../../src/runtime/engine/authenticate.js';
import { openMailReader, startMailSink, type MailReader, type MailSink } from '../../src/runtime/mail/index.js';
import { test, expect } from '../support/demo.js';
import { planFromYaml } from '../support/plan.js';

/**
 * Issue 37, "a link bound to the browser that started": the demo's magic link counts only when it is
 * opened with the `ml_bind` cookie of the browser that asked for it (another browser gets 403). The
 * procedure asks in a page, reads the link from the mail (behind a tracker on the server's other host
 * name) and opens it in that same page: signed in only if the whole procedure is one browser context.
 */
let sink: MailSink;
let reader: MailReader;

test.beforeAll(async () => {
  sink = await startMailSink({ host: '127.0.0.1', port: 0, apiPort: 0 });
  reader = await openMailReader({ kind: 'smtp', host: '127.0.0.1', port: sink.port, apiPort: sink.apiPort });
});

test.afterAll(async () => {
  await reader.close();
  await sink.close();
});

test('browser -> email -> browser: the magic link opens in the browser that asked for it, through the tracker on the other host', async ({ demo, browser }) => {
  demo.clear();
  demo.mailTo({ port: sink.port });
  const plan = planFromYaml(`
mail: { smtp: { port: ${sink.port}, api_port: ${sink.apiPort} } }
procedures:
  - name: page-link
    operations:
      - tech: browser
        parameters:
          options: { wait_for_seconds: 15 }
          project:
            tests:
              - id: t1
                name: ask for a link
                commands:
                  - { id: c1, command: open, target: "${demo.url}/magic-link" }
                  - { id: c2, command: type, target: "id=email", value: "{{email}}" }
                  - { id: c3, command: click, target: "id=send" }
                  - { id: c4, command: waitForElementVisible, target: "id=sent", value: "10000" }
      - tech: email
        parameters: { to: "{{email}}", subject: "Sign in to Demo" }
        extractions: [{ name: link, location: link, key: "http://localhost:*/t/click" }]
      - tech: browser
        parameters:
          options: { wait_for_seconds: 15 }
          project:
            tests:
              - id: t2
                name: open the link
                commands:
                  - { id: c5, command: open, target: "{{link}}" }
                  - { id: c6, command: waitForElementVisible, target: "css=#status[data-signed-in=tina]", value: "10000" }
users:
  - { name: tina, procedure: page-link, variables: [{ name: email, value: tina+browser@demo.test }] }
`);
  const contextsBefore = browser.contexts().length;
  try {
    const produced = await signInUser(plan, 'tina', { redactor: new Redactor(), browser, mail: async () => reader });
    // The app's session cookie, set by the verify route only for the browser holding `ml_bind`.
    const sid = produced.cookies.find((c) => c.name === 'sid');
    expect(sid?.value, 'signed in by the link').toBeTruthy();
    expect(browser.contexts().length, 'the procedure closed its one context').toBe(contextsBefore);
  } finally {
    demo.mailTo(undefined);
  }
});
