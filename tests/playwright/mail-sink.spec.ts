import { test, expect } from '@playwright/test';
import { createConnection } from 'node:net';
import { runInlineProject, inlineConfig } from '../support/inline-project.js';
import { freePort } from '../support/ports.js';

test.describe.configure({ timeout: 180_000 });

/** A config with the sink and one user of static headers (no sign-in: the run is about the sink). */
function config(mail: string): string {
  return [mail, 'presets:', '  - type: headers', '    users: [{ username: alice, headers: { X-User: alice } }]', ''].join('\n');
}

/** Two tests, run by two workers, each reading the one sink the runner started through the package's reader. */
const SPEC = `
import { test, expect } from '@playwright/test';
import nodemailer from 'nodemailer';
import { openMailReader } from '../node_modules/playwright-multiauth/dist/runtime/index.cjs';

const source = { kind: 'smtp', host: '127.0.0.1', port: Number(process.env.SMTP_PORT), apiPort: Number(process.env.API_PORT) };
for (const user of ['alice', 'bob']) {
  test('a mail to ' + user + ' reaches this worker', async ({}, testInfo) => {
    const reader = await openMailReader(source);
    try {
      const after = await reader.cursor();
      const wait = reader.waitFor({ to: user + '@example.test', after, timeoutMs: 10_000 });
      const transport = nodemailer.createTransport({ host: '127.0.0.1', port: source.port, ignoreTLS: true });
      await transport.sendMail({ from: 'app@example.test', to: user + '@example.test', subject: 'code for ' + user, text: 'x' });
      transport.close();
      const result = await wait;
      expect(result.kind === 'found' && result.message.subject).toBe('code for ' + user);
      console.log('READ ' + user + ' in worker ' + testInfo.workerIndex);
    } finally {
      await reader.close();
    }
  });
}
`;

async function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection(port, '127.0.0.1', () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

test('webServer: mailSink() runs the sink of the config for the whole run; the workers read it; it stops with the run', async () => {
  const [smtpPort, apiPort] = [await freePort(), await freePort()];
  const result = await runInlineProject(
    {
      'playwright.config.ts': `import { mailSink } from 'playwright-multiauth';\n${inlineConfig('webServer: mailSink(),\n  fullyParallel: true,')}`,
      'multiauth.yaml': config(`mail: { smtp: { port: ${smtpPort}, api_port: ${apiPort} } }`),
      'mail.spec.ts': SPEC,
    },
    { env: { SMTP_PORT: String(smtpPort), API_PORT: String(apiPort) } },
  );
  expect(result.output).toContain('2 passed');
  expect(result.output).toMatch(/READ alice in worker \d/);
  expect(result.output).toMatch(/READ bob in worker \d/);
  expect(await listening(smtpPort)).toBe(false);
  expect(await listening(apiPort)).toBe(false);
});

test('mailSink() of a config without mail.smtp fails the run with the config error and what to add', async () => {
  const result = await runInlineProject({
    'playwright.config.ts': `import { mailSink } from 'playwright-multiauth';\n${inlineConfig('webServer: mailSink(),')}`,
    'multiauth.yaml': config(''),
    'a.spec.ts': "import { test } from '@playwright/test';\ntest('never runs', () => {});\n",
  });
  expect(result.exitCode).not.toBe(0);
  expect(result.output).toContain('has no mail.smtp, the sink\'s ports');
  expect(result.output).toContain('mail: { smtp: { port: 2525 } }');
});
