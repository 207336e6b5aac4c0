import { redactedUrl } from '../core/urls.js';
import { formatPath } from '../core/path.js';
import type { NameValuesList, PlanExtraction, PlanInjection, PlanOperation, PlanProcedure, RequestTemplate, ResponseDialect } from './plan.js';

/** What each response dialect adds to the HTTP status check, in words. */
const DIALECTS: Record<ResponseDialect, string> = {
  graphql: 'fails on a GraphQL "errors" array, even with HTTP 200',
  oauth: 'reads OAuth error answers (RFC 6749 section 5.2)',
  cognito: 'reads Cognito errors and refuses challenges (new password, MFA)',
};

/**
 * A compiled procedure as readable lines (unmasked: the caller redacts). Part of `explainPlan`.
 *
 * @example
 * explainProcedure(plan.procedures['login'], ['alice', 'bob']).join('\n');
 * // procedure "login"  (procedures[0]), used by alice, bob
 * //   1. http  (procedures[0].operations[0])
 * //        POST https://x/login ...
 */
export function explainProcedure(procedure: PlanProcedure, usedBy: string[]): string[] {
  const from = procedure.fromPreset ? `, ${procedure.fromPreset} preset` : '';
  const users = usedBy.length ? `used by ${usedBy.join(', ')}` : 'used by no user';
  const lines = [`procedure "${procedure.name}"  (${formatPath(procedure.origin)}${from}), ${users}`];
  procedure.operations.forEach((operation, index) => lines.push(...explainOperation(operation, index)));
  for (const injection of procedure.injections) lines.push(`  ${explainInjection(injection)}`);
  if (procedure.injections.length === 0) lines.push('  injects nothing (the session keeps the cookies the sign-in set)');
  return lines;
}

function explainOperation(operation: PlanOperation, index: number): string[] {
  const pad = '       ';
  const head = `  ${index + 1}. ${operation.tech}  (${formatPath(operation.origin)})`;
  const body: string[] = [];
  switch (operation.tech) {
    case 'http':
      if (operation.source) body.push(`from ${operation.source.kind}: ${operation.source.command}`);
      body.push(...explainRequest(operation.request));
      if (operation.dialect) body.push(`checks: ${DIALECTS[operation.dialect]}`);
      if (operation.singleUse) body.push('sent once, never retried: it carries a value from a mail');
      break;
    case 'digest': {
      const second = `${operation.second.method ?? operation.first.method} ${redactedUrl(operation.second.url ?? operation.first.url)}`;
      body.push('challenge:', ...explainRequest(operation.first).map((l) => `  ${l}`));
      body.push(`answer: ${second}, with the user's username and password (RFC 7616)`);
      break;
    }
    case 'email': {
      const matching = [operation.subject && `subject /${operation.subject}/`, operation.from && `from /${operation.from}/`].filter(Boolean).join(', ');
      body.push(`waits up to ${operation.waitForSeconds} s for a mail to ${operation.to} that arrived after the procedure started${matching ? `, ${matching}` : ''}`);
      break;
    }
    case 'browser':
      body.push(`steps wait up to ${operation.waitForSeconds ?? 10} s${operation.proxy ? `, proxy ${operation.proxy}` : ''}`);
      if (operation.authorize) {
        body.push(`opens ${redactedUrl(operation.authorize.url)}`);
        if (operation.authorize.defaultLogin) body.push('default login: username, password, one-time code (totp_secret), consent');
        body.push(`ends at the redirect to ${operation.authorize.redirectUri} (intercepted; state checked): {{authorization_code}}`);
      }
      for (const test of operation.project.tests) {
        body.push(`test "${test.name}"`);
        for (const c of test.commands) body.push(`  ${[c.command, c.target, c.value].filter((p) => p !== undefined && p !== '').join('  ')}`);
      }
      break;
  }
  body.push(...operation.extractions.map(explainExtraction));
  return [head, ...body.map((line) => `${pad}${line}`)];
}

/**
 * A request template as lines: method and URL, then headers, cookies, query parameters, body and
 * transport options.
 *
 * @example
 * explainRequest({ method: 'GET', url: 'https://x', headers: [], cookies: [], query: [] }); // ['GET https://x']
 */
export function explainRequest(request: RequestTemplate): string[] {
  const lines = [`${request.method} ${redactedUrl(request.url)}`];
  lines.push(...pairs('header', request.headers, ': '), ...pairs('cookie', request.cookies, '='), ...pairs('query', request.query, '='));
  if (request.body !== undefined) {
    const form = request.headers.some(
      (h) => h.name.toLowerCase() === 'content-type' && h.values.some((v) => v.startsWith('application/x-www-form-urlencoded')),
    );
    const text = typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
    lines.push(`body${form && typeof request.body !== 'string' ? ' (form-encoded)' : ''}: ${text}`);
  }
  if (request.proxy !== undefined) lines.push(`proxy ${request.proxy}`);
  if (request.timeout !== undefined) lines.push(`timeout ${request.timeout} s`);
  if (request.insecure) lines.push('TLS certificate not verified');
  if (request.acceptStatus) lines.push(`also succeeds with HTTP ${request.acceptStatus.join(', ')}`);
  if (request.followRedirects !== undefined) {
    lines.push(request.followRedirects === 0 ? 'redirects not followed' : `follows up to ${request.followRedirects} redirects`);
  }
  return lines;
}

/**
 * Name/values lists as `kind name<sep>value` lines, one per value.
 *
 * @example
 * pairs('header', [{ name: 'Accept', values: ['a', 'b'] }], ': '); // ['header Accept: a', 'header Accept: b']
 */
export function pairs(kind: string, list: NameValuesList[], separator: string): string[] {
  return list.flatMap((item) => item.values.map((value) => `${kind} ${item.name}${separator}${value}`));
}

function explainExtraction(extraction: PlanExtraction): string {
  const source =
    extraction.match === 'first-key-ending-token'
      ? `the first string under body "${extraction.key}" whose key ends with "token"`
      : `${extraction.location} "${extraction.key}"${extraction.storageOrigin ? ` of ${extraction.storageOrigin}` : ''}`;
  const regex = extraction.regex === undefined ? '' : `, regex ${extraction.regex}`;
  return `extract ${extraction.name} from ${source}${regex}${extraction.optional ? ' (optional)' : ''}`;
}

function explainInjection(injection: PlanInjection): string {
  const value = injection.variable === undefined ? '<first extracted value>' : `{{${injection.variable}}}`;
  const prefix = injection.prefix ?? '';
  // A header prefix that ends in a letter gets one space (see inject).
  const joined = injection.location === 'header' && /[A-Za-z]$/.test(prefix) ? `${prefix} ${value}` : `${prefix}${value}`;
  switch (injection.location) {
    case 'header':
      return `inject header ${injection.key}: ${joined}`;
    case 'body':
      return `inject body field ${injection.key} = ${joined}`;
    case 'browser_local_storage':
    case 'browser_session_storage':
      return `inject ${injection.location === 'browser_local_storage' ? 'localStorage' : 'sessionStorage'} item ${injection.key} of ${injection.storageOrigin}: ${joined} (pages only)`;
    default:
      return `inject ${injection.location} ${injection.key}=${joined}`;
  }
}
