import { formatPath } from '../core/path.js';
import { MASK, type Redactor } from '../core/redactor.js';
import { maskUrlPasswords, redactedUrl } from '../core/urls.js';
import { explainProcedure, pairs } from './explain-procedure.js';
import type { Plan, PlanCredentials, PlanMail, PlanUser } from './plan.js';
import { registerPlan } from './secrets.js';

/**
 * The whole Plan as readable text, for `multiauth validate --explain`: every user (credentials,
 * variables, how it signs in and refreshes), then every procedure (requests with method, URL,
 * headers and body; extractions; injections), with every secret masked. The secrets of the Plan
 * (`registerPlan`: its secrets masked, its names never) are registered in `redactor` first, and the text goes through it;
 * the password of every URL in it (a proxy's, a browser step's) is masked whatever its length.
 *
 * @example
 * const text = explainPlan(compile(config), new Redactor());
 * // 2 users, 1 procedure
 * //
 * // user "alice"  (presets[0].users[0], http preset)
 * //   username: alice
 * //   password: ********
 * //   ...
 */
export function explainPlan(plan: Plan, redactor: Redactor): string {
  registerPlan(redactor, plan);
  const usage = procedureUsers(plan);
  const order = [...new Set([...usage.keys(), ...Object.keys(plan.procedures)])].filter((name) => plan.procedures[name]);
  const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const lines = [`${count(plan.users.length, 'user')}, ${count(order.length, 'procedure')}`];
  if (plan.proxy !== undefined) lines.push(`proxy of every sign-in request: ${plan.proxy}`);
  if (plan.scope.length) lines.push(`browser contexts send credentials to: ${plan.scope.join(', ')}`);
  for (const m of plan.mtls) lines.push(`mTLS client certificate for ${m.origin}`);
  if (plan.mail) lines.push(`mail read from ${describeMail(plan.mail)}`);
  for (const user of plan.users) lines.push('', ...explainUser(user));
  for (const name of order) lines.push('', ...explainProcedure(plan.procedures[name]!, usage.get(name) ?? []));
  return redactor.redact(maskUrlPasswords(`${lines.join('\n')}\n`, MASK));
}

/** Procedure name -> users that run it (to sign in or to refresh), in user order. */
function procedureUsers(plan: Plan): Map<string, string[]> {
  const usage = new Map<string, string[]>();
  const add = (procedure: string | undefined, user: string) => {
    if (procedure === undefined) return;
    const users = usage.get(procedure) ?? [];
    if (!users.includes(user)) users.push(user);
    usage.set(procedure, users);
  };
  for (const user of plan.users) {
    add(user.procedure, user.name);
    if (user.refresh) add(user.refresh.procedure, user.name);
  }
  return usage;
}

function explainUser(user: PlanUser): string[] {
  const source = user.source.kind === 'preset' ? `, ${user.source.type} preset` : '';
  const lines = [`user "${user.name}"  (${formatPath(user.origin)}${source})`];
  lines.push(...explainCredentials(user.credentials).map((l) => `  ${l}`));
  lines.push(...explainVariables(user.variables).map((l) => `  ${l}`));
  lines.push(`  signs in: ${user.procedure === undefined ? 'nothing to run (static credentials)' : `procedure "${user.procedure}"`}`);
  const refresh = user.refresh;
  if (refresh) {
    const parts = [`procedure "${refresh.procedure ?? '(none)'}"`];
    parts.push(refresh.sessionSeconds === undefined ? 'when the tokens expire' : `every ${refresh.sessionSeconds} s`);
    if (refresh.keep) parts.push('keeps what it does not renew');
    parts.push('signs in again when refused');
    lines.push(`  refresh: ${parts.join(', ')}`);
    // Only a refresh's own credentials and variables are shown; the user's were shown above.
    if (refresh.credentials !== user.credentials) {
      lines.push('  refresh credentials:', ...explainCredentials(refresh.credentials).map((l) => `    ${l}`));
    }
    if (refresh.variables !== user.variables) lines.push('  refresh variables:', ...explainVariables(refresh.variables).map((l) => `    ${l}`));
  }
  if (user.mtls) lines.push("  uses the config's mTLS client certificates");
  return lines;
}

function explainCredentials(credentials: PlanCredentials): string[] {
  const lines: string[] = [];
  if (credentials.username !== undefined) lines.push(`username: ${credentials.username}`);
  if (credentials.password !== undefined) lines.push(`password: ${credentials.password}`);
  if (credentials.basic === 'requests') lines.push('sends username and password as HTTP Basic on every request');
  if (credentials.basic === 'sign-in') lines.push('sends username and password as HTTP Basic on its sign-in requests that have no Authorization');
  lines.push(...pairs('header', credentials.headers, ': '), ...pairs('cookie', credentials.cookies, '='), ...pairs('query', credentials.query, '='));
  if (credentials.body !== undefined) {
    lines.push(`body merged into every request: ${typeof credentials.body === 'string' ? credentials.body : JSON.stringify(credentials.body)}`);
  }
  return lines;
}

function explainVariables(variables: Record<string, string>): string[] {
  return Object.entries(variables).map(([name, value]) => `variable ${name} = ${value}`);
}

/** Where email steps read mail, as explain says it. */
function describeMail(mail: PlanMail): string {
  if (mail.kind === 'smtp') return `the mail sink multiauth runs: SMTP on ${mail.host}:${mail.port}, read on 127.0.0.1:${mail.apiPort}`;
  return `${mail.kind === 'mailpit' ? 'Mailpit' : 'maildev'} at ${redactedUrl(mail.url)}`;
}
