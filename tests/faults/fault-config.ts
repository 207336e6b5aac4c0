import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { expect } from '@playwright/test';
import { MultiAuthError } from '../../src/core/errors.js';
import { Redactor } from '../../src/core/redactor.js';
import type { Plan } from '../../src/compile/plan.js';
import type { Session } from '../../src/runtime/session/session.js';
import { authenticate, type AuthenticateOptions } from '../../src/runtime/engine/authenticate.js';
import { planFromYaml } from '../support/plan.js';
import { PASSWORD } from './fault-server.js';

/** A user who signs in at `url` with a one-operation procedure of its own. */
export interface FaultUser {
  name: string;
  url: string;
  /** `http` (default): POST JSON, extract `access_token` from the body; `digest`: a digest preset-like operation. */
  tech?: 'http' | 'digest';
  timeout?: number;
  followRedirects?: number;
  insecure?: boolean;
}

/**
 * The YAML of a config whose users each sign in at their own fault endpoint, as a user would
 * write it: procedures and users, password in the credentials.
 *
 * @example
 * faultYaml([{ name: 'alice', url: `${faults.url}/500` }]);
 */
export function faultYaml(users: FaultUser[]): string {
  const procedures = users.map((user) => {
    const settings = [
      user.timeout !== undefined ? `          timeout: ${user.timeout}` : '',
      user.followRedirects !== undefined ? `          follow_redirects: ${user.followRedirects}` : '',
      user.insecure !== undefined ? `          insecure: ${user.insecure}` : '',
    ].filter(Boolean);
    if (user.tech === 'digest') {
      return `
  - name: sign-in-${user.name}
    operations:
      - tech: digest
        parameters:
          first_request:
            url: ${user.url}
            method: GET
${settings.map((line) => `  ${line}`).join('\n')}
    injections: []`;
    }
    return `
  - name: sign-in-${user.name}
    operations:
      - tech: http
        parameters:
          url: ${user.url}
          method: POST
          headers: [{ name: Content-Type, values: [application/json] }]
          body: { username: "{{username}}", password: "{{password}}" }
${settings.join('\n')}
        extractions:
          - { name: access_token, location: body, key: access_token }
    injections:
      - { location: header, key: Authorization, prefix: Bearer, variable: access_token }`;
  });
  const declared = users.map(
    (user) => `
  - name: ${user.name}
    procedure: sign-in-${user.name}
    credentials: { username: ${user.name}, password: ${PASSWORD} }`,
  );
  return `procedures:${procedures.join('')}\nusers:${declared.join('')}\n`;
}

/**
 * Loads and compiles the config as users do (loadConfig -> compile).
 *
 * @example
 * const plan = faultPlan([{ name: 'alice', url }]);
 */
export function faultPlan(users: FaultUser[]): Plan {
  return planFromYaml(faultYaml(users));
}

/** What a sign-in that was meant to fail did: its error (asserted to be a MultiAuthError) and how long it took. */
export interface Failure {
  error: MultiAuthError;
  text: string;
  elapsedMs: number;
}

/**
 * Signs `user` in and expects exactly one MultiAuthError; returns it, its rendering and the time.
 *
 * @example
 * const { error, text } = await signInFailure(plan, 'alice');
 */
export async function signInFailure(plan: Plan, user: string, options: Partial<AuthenticateOptions> = {}): Promise<Failure> {
  const redactor = options.redactor ?? new Redactor();
  const started = Date.now();
  let outcome: unknown;
  try {
    outcome = await authenticate(plan, user, { ...options, redactor });
  } catch (error) {
    outcome = error;
  }
  const elapsedMs = Date.now() - started;
  expect(outcome, `signing ${user} in was meant to fail`).toBeInstanceOf(MultiAuthError);
  const error = outcome as MultiAuthError;
  return { error, text: redactor.redact(error.render()), elapsedMs };
}

/**
 * Signs `user` in and expects it to work.
 *
 * @example
 * const session = await signIn(plan, 'bob');
 */
export function signIn(plan: Plan, user: string): Promise<Session> {
  return authenticate(plan, user, { redactor: new Redactor() });
}

/**
 * The assertions every failure shares: the error names the user, procedure and step, and the
 * cause; it holds neither the password nor any of `secrets` (tokens the server sent), nor a stack.
 *
 * @example
 * expectClearFailure(failure, 'alice', [tokenFor('alice')]);
 */
export function expectClearFailure(failure: Failure, user: string, secrets: string[] = []): void {
  expect(failure.error.context).toMatchObject({ user, procedure: `sign-in-${user}`, step: 0 });
  expect(failure.text).toContain(`while signing in user "${user}", procedure "sign-in-${user}", step 1 (`);
  expect(failure.text).toContain(`[${failure.error.code}]`);
  expect(failure.text).toContain('Recommended fix: ');
  expect(failure.text).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
  for (const secret of [PASSWORD, Buffer.from(`${user}:${PASSWORD}`).toString('base64'), ...secrets]) {
    expect(failure.text).not.toContain(secret);
  }
}

const GOLDEN = new URL('./golden/', import.meta.url);

/**
 * Compares a rendered error with `golden/<name>.txt`, ports replaced by `PORT` and sub-second
 * backoff waits (jittered) by `0.x s`. `UPDATE_GOLDEN=1` rewrites the file (then review the diff);
 * docs/errors.md quotes these files, and `golden-docs.spec.ts` checks it still does.
 *
 * @example
 * expectGolden('http-500', failure.text);
 */
export function expectGolden(name: string, text: string): void {
  const normalised = normaliseRender(text);
  const file = new URL(`${name}.txt`, GOLDEN);
  if (process.env.UPDATE_GOLDEN === '1') {
    mkdirSync(GOLDEN, { recursive: true });
    writeFileSync(file, `${normalised}\n`);
  }
  expect(normalised).toBe(readFileSync(file, 'utf8').replace(/\n$/, ''));
}

/**
 * A rendered error with what changes from run to run replaced.
 *
 * @example
 * normaliseRender('GET http://127.0.0.1:41234/x'); // 'GET http://127.0.0.1:PORT/x'
 */
export function normaliseRender(text: string): string {
  return text
    .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT')
    .replace(/then waited 0\.\d s/g, 'then waited 0.x s');
}
