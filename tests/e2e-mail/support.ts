import { test as demoTest } from '../support/demo.js';
import { freePort } from '../support/ports.js';

/**
 * The demo server (this worker's), pointed at the mail sink a child Playwright run starts with
 * `webServer: mailSink()`: `ports` are the sink's, free a moment ago.
 */
export const test = demoTest.extend<{ ports: { smtp: number; api: number } }>({
  ports: async ({ demo }, use) => {
    const ports = { smtp: await freePort(), api: await freePort() };
    demo.clear();
    demo.mailTo({ port: ports.smtp });
    await use(ports);
    demo.mailTo(undefined);
  },
});

export { expect } from '../support/demo.js';

/** The users signed in by a mailed code. */
export const FIVE = ['alice', 'bob', 'carol', 'dave', 'erin'];

/** Every user of `users` signed in by a code mailed to NAME+run@demo.test; mail.smtp on the given ports. */
export function codeConfig(url: string, ports: { smtp: number; api: number }): string {
  return `
mail:
  smtp: { port: ${ports.smtp}, api_port: ${ports.api} }
presets:
  - type: email_code
    start: { url: "${url}/email-code/start", method: POST, body: { email: "{{email}}" } }
    mail: { subject: "sign-in code", wait_for_seconds: 60 }
    code: "sign-in code is (\\\\d{6})"
    verify: { url: "${url}/email-code/verify", method: POST, body: { email: "{{email}}", code: "{{code}}" } }
    users:
${FIVE.map((user) => `      - { username: ${user}, email: ${user}+run@demo.test }`).join('\n')}
  - type: email_link
    start: { url: "${url}/magic-link/start", method: POST, body: { email: "{{email}}" } }
    link: "http://localhost:*/t/click"
    users:
      - { username: tina, email: tina+link@demo.test }
users:
  - name: tina2fa
    procedure: mail-2fa
    credentials: { username: tina, password: tina-password }
procedures:
  - name: mail-2fa
    operations:
      - tech: http
        parameters: { url: "${url}/mail-2fa/session", method: POST, body: { username: "{{username}}", password: "{{password}}" }, accept_status: [403] }
      - tech: email
        parameters: { to: tina@demo.test, subject: "verification code" }
        extractions:
          - { name: code, location: header, key: Subject, regex: "(\\\\d{6}) is your" }
      - tech: http
        parameters: { url: "${url}/mail-2fa/session/verify", method: PUT, body: { token: "{{code}}" } }
`;
}

