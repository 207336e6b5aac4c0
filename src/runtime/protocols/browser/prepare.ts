import type { BrowserContext } from 'playwright-core';
import type { NameValuesList, PlanBrowserOperation } from '../../../compile/index.js';
import { MultiAuthError } from '../../../core/errors.js';
import { BrowserVariables, expandText } from './expand.js';
import type { SecretSink, TemplateScope, TemplateWhere } from '../../template/template.js';

/** The user's static credentials a browser step sends (already template-expanded, values raw). */
export interface BrowserContextCredentials {
  headers?: NameValuesList[];
  cookies?: NameValuesList[];
}

/**
 * Gives a fresh context the user's per-preset headers (as `extraHTTPHeaders`, several values of a
 * header joined with `, `) and cookies (for `startUrl`'s site, each value URL-encoded once as
 * every other request of the user sends it; several values of one cookie: the first wins, a
 * browser keeps one per name). Call it before {@link runBrowserStep}.
 *
 * @throws MultiAuthError `CONFIG_INVALID` when there are cookies but no `startUrl` to scope them to.
 * @example
 * const context = await browser.newContext();
 * await prepareContext(context, { headers: user.credentials.headers, cookies: user.credentials.cookies },
 *   browserStartUrl(op, scope, where));
 */
export async function prepareContext(
  context: BrowserContext,
  credentials: BrowserContextCredentials,
  startUrl: string | undefined,
): Promise<void> {
  const headers: Record<string, string> = {};
  for (const { name, values } of credentials.headers ?? []) {
    const existing = Object.keys(headers).find((n) => n.toLowerCase() === name.toLowerCase()) ?? name;
    headers[existing] = [headers[existing], ...values].filter((v) => v !== undefined).join(', ');
  }
  if (Object.keys(headers).length) await context.setExtraHTTPHeaders(headers);
  const cookies = (credentials.cookies ?? []).filter((cookie) => cookie.values.length);
  if (!cookies.length) return;
  if (!startUrl) {
    throw new MultiAuthError('CONFIG_INVALID', 'the user has cookies but the browser project opens no URL to send them to', {
      hint: 'Set the project\'s `url`, or start the first test with `open` and an absolute URL.',
    });
  }
  await context.addCookies(
    // The origin, not the start URL: a cookie scoped to `/login/` would not reach the rest of the site.
    cookies.map(({ name, values }) => ({ name, value: encodeURIComponent(values[0] ?? ''), url: new URL(startUrl).origin })),
  );
}

/**
 * Where a browser operation starts: the project's `url`, else the target of the first `open`
 * with an absolute URL (templates expanded). Undefined when neither exists.
 *
 * @example
 * browserStartUrl(op, { base: 'https://app.test' }, { user: 'alice' }); // 'https://app.test/login'
 */
export function browserStartUrl(op: PlanBrowserOperation, scope: TemplateScope, where: TemplateWhere, secrets?: SecretSink): string | undefined {
  const vars = new BrowserVariables(scope, secrets);
  if (op.project.url) return expandText(op.project.url, vars, { ...where, path: [...op.origin, 'project', 'url'] });
  for (const [t, test] of op.project.tests.entries()) {
    for (const [c, command] of test.commands.entries()) {
      if (command.command.trim() !== 'open') continue;
      const path = [...op.origin, 'project', 'tests', t, 'commands', c, 'target'];
      const url = expandText(command.target, vars, { ...where, path });
      if (/^https?:\/\//i.test(url)) return url;
    }
  }
  return undefined;
}
