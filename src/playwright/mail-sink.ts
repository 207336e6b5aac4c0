import { join } from 'node:path';
import { packageRoot } from '../core/package-files.js';
import { MultiAuthError } from '../core/errors.js';
import { playwrightConfigDir } from './config-dir.js';
import { matrixConfig } from './role-matrix.js';
import { toSpecError } from './spec-error.js';

/** Options of {@link mailSink}. */
export interface MailSinkOptions {
  /** Config path, relative to the Playwright config's folder; default as the fixtures': MULTIAUTH_CONFIG, then `multiauth.yaml` there. */
  config?: string;
  /** How long Playwright waits for the sink to answer, in ms (default 30 s: a node start and a config opening on a loaded CI machine). */
  timeout?: number;
  /** Playwright's `reuseExistingServer`; default: reuse a running sink except in CI (`process.env.CI` set). */
  reuseExistingServer?: boolean;
}

/** The `webServer` entry {@link mailSink} returns (the fields of Playwright's `TestConfig['webServer']` it sets). */
export interface MailSinkWebServer {
  command: string;
  url: string;
  reuseExistingServer: boolean;
  timeout: number;
  name: string;
  stdout: 'ignore';
  stderr: 'pipe';
  gracefulShutdown: { signal: 'SIGTERM'; timeout: number };
}


/**
 * A Playwright `webServer` entry that runs the package's mail sink (`multiauth mail-sink`) of the
 * config's `mail.smtp` for the whole run: up before the first test, read by every worker (a worker
 * restarts; only one process can hold the port; sign-ins happen mid-run). It reads the same config
 * as the fixtures (MULTIAUTH_CONFIG, else `multiauth.yaml` beside `playwright.config.ts`), or
 * `options.config`, synchronously, as `authUsers()` does.
 *
 * `reuseExistingServer` is `!process.env.CI` by default, as Playwright's own examples: locally a
 * sink still running (a UI-mode session, a second run in another terminal) serves this run too, which
 * is safe since every wait takes its own cursor and matches its recipient exactly; in CI a port
 * already taken means a leftover process, and the run should fail on it rather than read its mail.
 *
 * @throws MultiAuthError `CONFIG_INVALID` when the config has no `mail.smtp` (Mailpit and maildev
 *   run on their own); the config's own errors as `authUsers()` throws them.
 * @example
 * // playwright.config.ts
 * import { defineConfig } from '@playwright/test';
 * import { mailSink } from 'playwright-multiauth';
 * export default defineConfig({
 *   webServer: [mailSink(), { command: 'npm start', url: 'http://127.0.0.1:3000' }],
 * });
 */
export function mailSink(options: MailSinkOptions = {}): MailSinkWebServer {
  const config = matrixConfig(options, playwrightConfigDir());
  const mail = config.mail;
  if (mail?.kind !== 'smtp') {
    throw toSpecError(new MultiAuthError('CONFIG_INVALID', mail
      ? `mailSink(): ${config.file} reads mail from ${mail.kind === 'mailpit' ? 'Mailpit' : 'maildev'} (mail.${mail.kind}), not from the package's sink`
      : `mailSink(): ${config.file} has no mail.smtp, the sink's ports`, {
      path: ['mail'],
      hint: mail
        ? 'Leave mailSink() out of webServer: the tests read that catcher directly; or use mail: { smtp: { port: 2525 } } and point the application at it.'
        : 'Add the sink to the config: mail: { smtp: { port: 2525 } }, and point the application\'s mail settings at 127.0.0.1:2525 (docs/email.md).',
    }));
  }
  // The package's own CLI, which runs `dist/`.
  const args = [process.execPath, join(packageRoot(), 'bin', 'multiauth.js'), 'mail-sink', '--config', config.file];
  return {
    command: args.map(shellWord).join(' '),
    url: `http://127.0.0.1:${mail.apiPort}/health`,
    reuseExistingServer: options.reuseExistingServer ?? !process.env.CI,
    timeout: options.timeout ?? 30_000,
    name: 'mail sink',
    stdout: 'ignore',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 5_000 },
  };
}

/** One word for the shell Playwright runs `command` in: POSIX single quotes, cmd.exe double quotes. */
function shellWord(arg: string): string {
  return process.platform === 'win32' ? `"${arg}"` : `'${arg.replace(/'/g, "'\\''")}'`;
}
