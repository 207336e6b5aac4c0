import type { Analysis } from './chain.js';
import { describeExchange } from './chain.js';
import { looksSecret } from './heuristics.js';
import { leafName } from './sign-in.js';
import type { Exchange } from './exchanges.js';

/** Milliseconds a drafted browser step waits for the signed-in page. */
const WAIT_MS = '10000';

/**
 * A `webdriver` preset that signs in as a person does, from the recording's page load and form
 * post: open the page that held the login form, type the login and password into the fields the
 * post sent (by `name=`), click the form's submit button, then wait until the signed-in page makes
 * its first request with the session header (or until the password field is gone). Headers the
 * signed-in requests carried become extractions of what the browser sent, and injections.
 * Undefined, with the reason, when the recording cannot say it (no form post, no page with the form).
 *
 * @example
 * const preset = webdriverPreset(analysis, 'alice', '${ALICE_PASSWORD}');
 */
export function webdriverPreset(
  analysis: Analysis,
  user: string,
  password: string,
): { preset: Record<string, unknown>; evidence: string } | { why: string } {
  const { signIn } = analysis;
  if (signIn.kind !== 'fields' || !signIn.exchange.requestBody?.form) {
    return { why: 'the sign-in is not a form post: a browser sign-in cannot be drafted from the recording' };
  }
  const field = signIn.password.name;
  const page = formPage(analysis, field);
  if (!page) return { why: `no page recorded before the sign-in holds its form (a field named "${field}")` };
  const html = page.responseBody!.text;
  const commands: Array<Record<string, string>> = [{ command: 'open', target: pageUrl(page) }];
  for (const { name, value } of signIn.exchange.requestBody.form) {
    if (!visibleInput(html, name)) continue;
    const typed =
      name === field ? '{{password}}' : signIn.username && name === signIn.username.name ? '{{username}}' : looksSecret(value) || /otp|code/i.test(leafName(name)) ? undefined : value;
    if (typed !== undefined) commands.push({ command: 'type', target: `name=${name}`, value: typed });
  }
  commands.push({ command: 'click', target: `css=form:has([name="${field}"]) [type=submit]` });
  const header = analysis.sessionHeaders[0];
  const used = header && analysis.firstUse.get(header.name);
  commands.push(
    used
      ? { command: 'wait', target: `request_url_contains=${used.url.pathname}`, value: String(Number(WAIT_MS) / 1000) }
      : { command: 'waitForElementNotPresent', target: `name=${field}`, value: WAIT_MS },
  );
  const extractions = analysis.sessionHeaders.map((h) => ({
    name: h.variable,
    location: 'header',
    key: h.name,
    ...(h.prefix && { regex: `^${h.prefix} (.+)$` }),
  }));
  const injections = analysis.sessionHeaders.map((h) => ({ location: 'header', key: h.name, ...(h.prefix && { prefix: h.prefix }), variable: h.variable }));
  return {
    preset: {
      type: 'webdriver',
      ...(extractions.length && { extractions, injections }),
      users: [
        {
          username: user,
          password,
          project: { tests: [{ id: 'sign-in', name: `sign in as ${user}`, commands: commands.map((c, i) => ({ id: `c${i + 1}`, ...c })) }] },
        },
      ],
    },
    evidence: `a browser sign-in: the form of ${describeExchange(page)} filled and posted as ${describeExchange(signIn.exchange)} did: a \`webdriver\` preset`,
  };
}

function formPage(analysis: Analysis, field: string): Exchange | undefined {
  return analysis.before
    .filter((e) => e.method === 'GET')
    .reverse().find((e) => /html/.test(e.responseBody?.mime ?? '') && (e.responseBody?.text.includes(`name="${field}"`) ?? false));
}

function pageUrl(page: Exchange): string {
  const clean = [...page.url.searchParams].every(([, value]) => !looksSecret(value));
  return clean ? page.url.href.replace(/#.*$/, '') : `${page.url.origin}${page.url.pathname}`;
}

/** Whether the page has a field named `name` that a person types into (not hidden, not a button). */
function visibleInput(html: string, name: string): boolean {
  const quoted = `name="${name}"`;
  let at = html.indexOf(quoted);
  while (at >= 0) {
    const start = html.lastIndexOf('<', at);
    const end = html.indexOf('>', at);
    const tag = start >= 0 && end >= 0 ? html.slice(start, end + 1) : '';
    if (/^<(input|textarea)\b/i.test(tag) && !/\stype="(hidden|submit|button|checkbox|radio)"/i.test(tag)) return true;
    at = html.indexOf(quoted, at + quoted.length);
  }
  return false;
}
