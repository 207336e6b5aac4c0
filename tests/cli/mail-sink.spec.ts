import { test, expect } from '@playwright/test';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { openMailReader } from '../../src/runtime/mail/index.js';
import { runCliAsync, STACK_FRAME } from '../support/cli.js';
import { sendTestMail } from '../support/mail.js';
import { freePort } from '../support/ports.js';
import { ROOT } from '../support/root.js';
import { writeTempConfig } from '../support/temp-files.js';

const USERS = 'presets:\n  - type: headers\n    users: [{ username: alice, headers: { X-User: alice } }]\n';

test('multiauth mail-sink serves the config\'s mail.smtp until SIGTERM: one line when listening, the mail read through its API, exit 0', async () => {
  const [port, apiPort] = [await freePort(), await freePort()];
  const config = writeTempConfig(`mail: { smtp: { port: ${port}, api_port: ${apiPort} } }\n${USERS}`);
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'multiauth.js'), 'mail-sink', '-c', config.file], { cwd: config.dir, env: { PATH: process.env.PATH }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk) => {
        stdout += chunk;
        if (stdout.includes('\n')) resolve();
      });
      child.once('close', () => reject(new Error(`mail-sink exited: ${stderr}`)));
    });
    expect(stdout).toBe(`mail sink: SMTP on 127.0.0.1:${port}, API on http://127.0.0.1:${apiPort} (config multiauth.yaml; stop with Ctrl-C)\n`);
    const reader = await openMailReader({ kind: 'smtp', host: '127.0.0.1', port, apiPort });
    try {
      const wait = reader.waitFor({ to: 'alice@example.test', after: await reader.cursor(), timeoutMs: 10_000 });
      await sendTestMail(port, { to: 'alice@example.test', subject: 'your code', text: '123456' });
      expect(await wait).toMatchObject({ kind: 'found', message: { subject: 'your code', text: '123456\n' } });
    } finally {
      await reader.close();
    }
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(stderr).toBe('');
  } finally {
    child.kill('SIGKILL');
    config.remove();
  }
});

test('multiauth mail-sink without mail.smtp: exit 2 with the config error and what to add', async () => {
  const config = writeTempConfig(USERS);
  try {
    const run = await runCliAsync(['mail-sink', '-c', config.file], { timeoutMs: 30_000 });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('mail: multiauth mail-sink needs mail.smtp in the config, and it has no mail');
    expect(run.stderr).toContain('mail: { smtp: { port: 2525 } }');
    expect(run.stderr).not.toMatch(STACK_FRAME);
  } finally {
    config.remove();
  }
});

test('multiauth mail-sink on a taken port: exit 1, the port named, no stack', async () => {
  const holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  const taken = (holder.address() as { port: number }).port;
  const config = writeTempConfig(`mail: { smtp: { port: ${taken}, api_port: ${await freePort()} } }\n${USERS}`);
  try {
    const run = await runCliAsync(['mail-sink', '-c', config.file], { timeoutMs: 30_000 });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`the mail sink cannot listen on 127.0.0.1:${taken} (its SMTP): the port is taken`);
    expect(run.stderr).toContain('[MAIL_UNAVAILABLE]');
    expect(run.stderr).not.toMatch(STACK_FRAME);
  } finally {
    holder.close();
    config.remove();
  }
});
