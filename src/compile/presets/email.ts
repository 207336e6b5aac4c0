import type { EmailCodePreset, EmailLinkPreset } from '../../config/index.js';
import type { ConfigPath } from '../../core/path.js';
import { DEFAULT_EMAIL_WAIT_SECONDS } from '../generic.js';
import type { PlanCredentials, PlanEmailOperation, PlanExtraction, PlanHttpOperation, PlanOperation, PlanProcedure, RequestTemplate } from '../plan.js';
import { planExtractions, planInjections, presetCredentials, presetRequest } from '../normalize.js';
import { presetProcedureName, presetUser, type PresetOutput, type PresetSite } from './preset-output.js';

/** The variable the `email_code` preset reads the code into (`{{code}}` in its verify request). */
export const EMAIL_CODE_VARIABLE = 'code';
/** The variable the `email_link` preset reads the link into. */
export const EMAIL_LINK_VARIABLE = 'magic_link';

/**
 * `email_code`: one procedure shared by the preset's users, the shape most passwordless sign-ins
 * have (issue 37, item 5): the `start` request (templated with `{{email}}`, and `{{password}}` for
 * a password plus emailed code), a `tech: email` step waiting for the user's mail and reading the
 * code with `code` (its context, not "the first six digits"), then the `verify` request that sends
 * `{{code}}`. The session is what the verify exchange set (cookies) and what `injections` say.
 *
 * @example
 * compileEmailCodePreset({ type: 'email_code', start: { url: 'https://app.test/code', method: 'POST', body: { email: '{{email}}' } },
 *   mail: {}, code: 'code: (\\d{6})', verify: { url: 'https://app.test/verify', method: 'POST', body: { code: '{{code}}' } },
 *   extractions: [], injections: [], users: [{ username: 'alice', email: 'alice@app.test' }] }, site);
 * // operations: http (start), email (code), http (verify, sent once)
 */
export function compileEmailCodePreset(preset: EmailCodePreset, site: PresetSite): PresetOutput {
  const code: PlanExtraction = {
    name: EMAIL_CODE_VARIABLE,
    location: preset.code_in === 'subject' ? 'header' : 'body',
    key: preset.code_in === 'subject' ? 'Subject' : '',
    regex: preset.code,
    origin: [...site.origin, 'code'],
  };
  return emailPreset(preset, site, code, {
    tech: 'http',
    origin: [...site.origin, 'verify'],
    request: request(preset.verify),
    extractions: planExtractions(preset.extractions, [...site.origin, 'extractions']),
  });
}

/**
 * `email_link`: the `start` request, a `tech: email` step reading the mail's link (`link`, a glob;
 * default its first link), then a GET of that link, sent once, its redirects followed (a tracking
 * redirect on another host too) with the cookies they set kept: the session.
 *
 * @example
 * compileEmailLinkPreset({ type: 'email_link', start: { url: 'https://app.test/magic', method: 'POST', body: { email: '{{email}}' } },
 *   mail: { subject: 'Sign in' }, link: '/auth/verify', extractions: [], injections: [], users: [{ username: 'bob', email: 'bob@app.test' }] }, site);
 * // operations: http (start), email (link), http (GET {{magic_link}}, sent once)
 */
export function compileEmailLinkPreset(preset: EmailLinkPreset, site: PresetSite): PresetOutput {
  const link: PlanExtraction = { name: EMAIL_LINK_VARIABLE, location: 'link', key: preset.link ?? '', origin: [...site.origin, preset.link === undefined ? 'mail' : 'link'] };
  return emailPreset(preset, site, link, {
    tech: 'http',
    origin: [...site.origin, 'link'],
    request: { url: `{{${EMAIL_LINK_VARIABLE}}}`, method: 'GET', headers: [], cookies: [], query: [] },
    extractions: planExtractions(preset.extractions, [...site.origin, 'extractions']),
  });
}

function emailPreset(preset: EmailCodePreset | EmailLinkPreset, site: PresetSite, read: PlanExtraction, last: PlanHttpOperation): PresetOutput {
  const mailOrigin: ConfigPath = [...site.origin, 'mail'];
  const email: PlanEmailOperation = {
    tech: 'email',
    origin: mailOrigin,
    to: '{{email}}',
    waitForSeconds: preset.mail.wait_for_seconds ?? DEFAULT_EMAIL_WAIT_SECONDS,
    extractions: [read],
    ...(preset.mail.subject === undefined ? {} : { subject: preset.mail.subject }),
    ...(preset.mail.from === undefined ? {} : { from: preset.mail.from }),
  };
  const operations: PlanOperation[] = [
    { tech: 'http', origin: [...site.origin, 'start'], request: request(preset.start), extractions: [] },
    email,
    last,
  ];
  const procedure: PlanProcedure = {
    name: presetProcedureName(site),
    origin: site.origin,
    fromPreset: site.type,
    operations,
    injections: planInjections(preset.injections, [...site.origin, 'injections']),
  };
  const users = preset.users.map((user, index) => {
    // Template values only: a password is never sent as Basic where nobody asked for it.
    const extra: Partial<PlanCredentials> = { username: user.username, basic: 'none' };
    if (user.password !== undefined) extra.password = user.password;
    return presetUser(site, index, user.username, presetCredentials(user, extra), {
      procedure: procedure.name,
      variables: { email: user.email },
    });
  });
  return { users, procedures: [procedure], secrets: [] };
}

function request(preset: EmailCodePreset['start']): RequestTemplate {
  const out = presetRequest(preset);
  if (preset.accept_status !== undefined) out.acceptStatus = [...new Set(preset.accept_status)];
  return out;
}
