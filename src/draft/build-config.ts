import { isPlainObject } from '../core/json-path.js';
import type { Analysis, StepPlan } from './chain.js';
import { describeExchange } from './chain.js';
import { draftRequest, type DraftRequest } from './build-request.js';
import { isAddress, looksSecret } from './heuristics.js';
import { envName } from './names.js';
import { leafName } from './sign-in.js';
import { webdriverPreset } from './build-webdriver.js';
import { sessionMarkers } from './session-check.js';
import { MultiAuthError } from '../core/errors.js';

/** A drafted config, before it is text: the object, and what its `${NAME}`s stand for. */
export interface DraftedConfig {
  /** `http`, `oauth_userpass`, ... or `procedure`. */
  form: string;
  /** The user's name in the config. */
  user: string;
  config: Record<string, unknown>;
  /** `${NAME}` -> the value the recording held (written to `.env` only with `--write-env`). */
  env: Map<string, string>;
  /** Every value of the recording that must not appear in the draft (the guard checks). */
  secrets: Set<string>;
  evidence: string[];
  todos: string[];
}

/**
 * Turns an analysis into a config object in the most compact form that says it: `oauth_userpass`
 * or `oauth_client_credentials` for a token request, `graphql` for a login mutation, `basic` for
 * HTTP Basic kept on every request, `http` for one request, else a procedure and a generic user.
 * Every secret becomes `${NAME}` (named after the user), every value an earlier answer gave a
 * `{{variable}}` with its extraction.
 *
 * @example
 * const drafted = buildConfig(analysis, { user: 'alice' });
 */
export function buildConfig(analysis: Analysis, options: { user?: string; webdriver?: boolean }): DraftedConfig {
  const { signIn } = analysis;
  const login = signIn.kind === 'basic' ? signIn.username : signIn.username?.value;
  const user = options.user ?? login ?? (signIn.kind === 'oauth' ? signIn.clientId : undefined) ?? 'user';
  const env = new Map<string, string>();
  const secrets = new Set<string>();
  const evidence = [...analysis.evidence];
  const todos = [...analysis.todos];
  // `shared:` names a secret that is not the user's (an OAuth client's): no user prefix.
  const secretEnv = (what: string, value: string): string => {
    const name = what.startsWith('shared:') ? envName(what.slice('shared:'.length)) : envName(user, what);
    env.set(name, value);
    secrets.add(value);
    return `\${${name}}`;
  };
  // A redirect target a login form sends back is a needed value, not a secret.
  for (const value of analysis.vars.keys()) if (!isAddress(value)) secrets.add(value);
  const markers = analysis.validation ? sessionMarkers(analysis.validation, analysis.before, signIn.kind === 'fields' ? signIn.password.name : undefined) : undefined;
  evidence.push(...(markers?.evidence ?? []));
  const validation = analysis.validation
    ? {
        validation: {
          url: validationUrl(analysis.validation.url),
          ...(markers?.match !== undefined && { match: markers.match }),
          ...(markers?.not_match !== undefined && { not_match: markers.not_match }),
        },
      }
    : {};
  const sign = describeExchange(signIn.exchange);

  // A form post whose fields the page's script computed cannot be replayed; typing into the form can.
  const computed = analysis.untraced.some((c) => c.where === 'body');
  if (options.webdriver || computed) {
    const password = signIn.kind === 'fields' ? secretEnv('password', signIn.password.value) : '';
    const browser = webdriverPreset(analysis, user, password);
    if ('preset' in browser) {
      evidence.push(browser.evidence);
      return { form: 'webdriver', user, config: { ...validation, presets: [browser.preset] }, env, secrets, evidence, todos };
    }
    if (options.webdriver) {
      throw new MultiAuthError('DRAFT_NO_SIGN_IN', `no browser sign-in can be drafted from ${sign}: ${browser.why}`, {
        hint: 'Record the sign-in in a browser, from its login page (docs/draft.md), or leave out --webdriver.',
      });
    }
    todos.push(`a browser sign-in was not drafted: ${browser.why}`);
    env.clear();
  }
  const compact = compactForm(analysis, user, login, secretEnv, evidence, todos);
  if (compact) return { form: compact.form, user, config: { ...validation, presets: [compact.preset] }, env, secrets, evidence, todos };

  // The sign-in's own fields: the password and login become the user's, a one-time code a TODO.
  const fieldReplace = (value: string, field: string): string | undefined => {
    if (signIn.kind === 'basic') return undefined;
    if (signIn.password && value === signIn.password.value && field === signIn.password.name) return '{{password}}';
    if (signIn.username && value === signIn.username.value && field === signIn.username.name) return '{{username}}';
    if (signIn.kind === 'fields' && signIn.otp && field === signIn.otp.name) {
      todos.push(`${sign} sends a one-time code in "${signIn.otp.name}": a recorded code is spent; use "{{ totp(totp_secret) }}" with the user's TOTP secret in variables`);
      return secretEnv(leafName(field), value);
    }
    return undefined;
  };
  const replace = (value: string, field: string): string => {
    const own = fieldReplace(value, field);
    if (own !== undefined) return own;
    const variable = analysis.vars.get(value);
    if (variable) return `{{${variable}}}`;
    if (looksSecret(value)) {
      const ref = secretEnv(leafName(field), value);
      evidence.push(`${field} holds a value no recorded answer gave and that looks like a key -> ${ref}`);
      return ref;
    }
    return value;
  };
  if (signIn.kind === 'fields') {
    evidence.push(`sign-in: ${sign} sends a password in "${signIn.password.name}"${signIn.username ? ` and the login in "${signIn.username.name}"` : ''}`);
    secrets.add(signIn.password.value);
  }
  if (signIn.kind === 'basic') {
    evidence.push(`sign-in: ${sign} sends HTTP Basic`);
    secrets.add(signIn.password);
  }
  const jar = new Set(analysis.steps.flatMap((step) => step.exchange.setCookies.map((c) => c.name)));
  const injections = sessionInjections(analysis);
  const staticHeaders = analysis.staticHeaders.map(({ name, value }) => ({ name, values: [secretEnv(name, value)] }));
  const password = signIn.kind === 'basic' ? signIn.password : signIn.password?.value;

  // The user's own headers go with every request, the sign-in's too: not a second time by hand.
  const own = new Set(analysis.staticHeaders.map((h) => h.name.toLowerCase()));
  const requestOf = (exchange: StepPlan['exchange']): DraftRequest => {
    const request = draftRequest(exchange, replace, jar);
    return { ...request, headers: request.headers.filter(([name]) => !own.has(name.toLowerCase())) };
  };
  if (analysis.steps.length === 1 && signIn.kind !== 'oauth') {
    const request = requestOf(signIn.exchange);
    const presetUser: Record<string, unknown> = { username: user };
    if (password !== undefined) presetUser.password = secretEnv('password', password);
    if (login !== undefined && login !== user) evidence.push(`the user is named "${user}"; the recorded login stays in the request`);
    if (staticHeaders.length) presetUser.headers = Object.fromEntries(staticHeaders.map((h) => [h.name, h.values[0]]));
    const preset = {
      type: 'http',
      request: presetRequest(request, login !== undefined && login !== user ? login : undefined),
      extractions: extractionsOf(analysis.steps[0]!),
      injections,
      users: [presetUser],
    };
    evidence.push('one request signs in: an `http` preset');
    return { form: 'http', user, config: { ...validation, presets: [preset] }, env, secrets, evidence, todos };
  }

  const operations = analysis.steps.map((step) => {
    const request = requestOf(step.exchange);
    return { tech: 'http', parameters: procedureRequest(request), extractions: extractionsOf(step) };
  });
  const credentials: Record<string, unknown> = {};
  if (login !== undefined) credentials.username = login;
  if (password !== undefined) credentials.password = secretEnv('password', password);
  if (staticHeaders.length) credentials.headers = staticHeaders;
  evidence.push(`${operations.length} requests sign in: a procedure "login" and a user "${user}"`);
  return {
    form: 'procedure',
    user,
    config: {
      ...validation,
      procedures: [{ name: 'login', operations, injections }],
      users: [{ name: user, procedure: 'login', credentials }],
    },
    env,
    secrets,
    evidence,
    todos,
  };
}

type SecretEnv = (what: string, value: string) => string;

/** The preset that says the sign-in in one block, when one does. */
function compactForm(
  analysis: Analysis,
  user: string,
  login: string | undefined,
  secretEnv: SecretEnv,
  evidence: string[],
  todos: string[],
): { form: string; preset: Record<string, unknown> } | undefined {
  const { signIn } = analysis;
  const single = analysis.steps.length === 1;
  const sign = describeExchange(signIn.exchange);
  const bearerOnly = analysis.sessionHeaders.length <= 1 && analysis.sessionHeaders.every((h) => h.name.toLowerCase() === 'authorization' && h.prefix?.toLowerCase() === 'bearer');
  if (signIn.kind === 'oauth' && signIn.unsent) {
    evidence.push(`sign-in: ${sign} is an OAuth token request, but the oauth presets cannot send its ${signIn.unsent.map((n) => `"${n}"`).join(', ')} as recorded (an empty scope, or a parameter beyond the grant's): a procedure replays the request`);
    return undefined;
  }
  if (signIn.kind === 'oauth') {
    if (!single || !bearerOnly) todos.push(`the OAuth token request is drafted as a preset, but the recording also needed ${analysis.steps.length - 1} other requests or other headers: check them`);
    const url = `${signIn.exchange.url.origin}${signIn.exchange.url.pathname}`;
    const client = signIn.clientId ?? 'client';
    const clientSecret = signIn.clientSecret === undefined ? '' : secretEnv(`shared:${client}_client_secret`, signIn.clientSecret);
    if (signIn.clientSecret === undefined) todos.push('the token request sent no client secret: a public client; check that the server accepts client_secret: ""');
    const auth = signIn.clientAuth === 'basic' ? { client_auth: 'basic' } : {};
    const scopes = signIn.scope ? { scopes: signIn.scope } : {};
    evidence.push(`sign-in: ${sign} is an OAuth token request (grant_type=${signIn.grant}, client authentication ${signIn.clientAuth === 'basic' ? 'Basic' : 'in the body'}): an \`oauth_${signIn.grant === 'password' ? 'userpass' : 'client_credentials'}\` preset`);
    if (signIn.grant === 'password') {
      if (login !== undefined && login !== user) evidence.push(`--user "${user}" is not the recorded login "${login}": oauth_userpass sends the user's name as username, so the login stays`);
      const password = signIn.password?.value ?? '';
      return {
        form: 'oauth_userpass',
        preset: {
          type: 'oauth_userpass', url, client_id: client, client_secret: clientSecret, ...auth,
          users: [{ username: login ?? user, password: secretEnv('password', password), ...scopes }],
        },
      };
    }
    return {
      form: 'oauth_client_credentials',
      preset: { type: 'oauth_client_credentials', url, ...auth, users: [{ username: user, client_id: client, client_secret: clientSecret, ...scopes }] },
    };
  }
  if (signIn.kind === 'graphql' && single && bearerOnly) {
    const step = analysis.steps[0]!;
    const variables: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(signIn.variables)) {
      variables[name] = name === signIn.password.name ? secretEnv('password', signIn.password.value) : value;
    }
    evidence.push(`sign-in: ${sign} is a GraphQL mutation with the password in variable "${signIn.password.name}": a \`graphql\` preset`);
    const extractions = extractionsOf(step);
    return {
      form: 'graphql',
      preset: {
        type: 'graphql', url: `${signIn.exchange.url.origin}${signIn.exchange.url.pathname}`, query: signIn.query,
        ...(extractions.length && { extractions, injections: sessionInjections(analysis) }),
        users: [{ username: user, variables }],
      },
    };
  }
  if (signIn.kind === 'basic' && single && analysis.sessionHeaders.length === 0 && analysis.sessionCookies.length === 0) {
    evidence.push(`sign-in: ${sign} sends HTTP Basic and the signed-in requests keep sending it: a \`basic\` preset`);
    return { form: 'basic', preset: { type: 'basic', users: [{ username: signIn.username, password: secretEnv('password', signIn.password) }] } };
  }
  return undefined;
}

function extractionsOf(step: StepPlan): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = step.extractions.map(({ name, origin }) => ({
    name,
    location: origin.location,
    key: origin.key,
    ...(origin.regex !== undefined && { regex: origin.regex }),
  }));
  // The runtime reads a variable named `expires_in` as the session's lifetime (RFC 6749 5.1): without
  // it a replayed token request's session would count as lasting the run and never be renewed.
  const json = step.exchange.responseBody?.json;
  if (isPlainObject(json) && /^\d{1,10}$/.test(String(json.expires_in)) && !out.some((e) => e.name === 'expires_in')) {
    out.push({ name: 'expires_in', location: 'body', key: 'expires_in' });
  }
  return out;
}

function sessionInjections(analysis: Analysis): Array<Record<string, unknown>> {
  return analysis.sessionHeaders.map((h) => ({ location: 'header', key: h.name, ...(h.prefix && { prefix: h.prefix }), variable: h.variable }));
}

/** The `http` preset's request: maps, not lists. */
function presetRequest(request: DraftRequest, literalLogin: string | undefined): Record<string, unknown> {
  const body = literalLogin === undefined ? request.body : relogin(request.body, literalLogin);
  return {
    url: request.url,
    method: request.method,
    ...(request.headers.length && { headers: Object.fromEntries(request.headers) }),
    ...(request.cookies.length && { cookies: Object.fromEntries(request.cookies) }),
    ...(request.query.length && { query_parameters: Object.fromEntries(request.query) }),
    ...(body !== undefined && { body }),
  };
}

/** A procedure's request: lists of `{ name, values }`. */
function procedureRequest(request: DraftRequest): Record<string, unknown> {
  const list = (pairs: Array<[string, string]>) => pairs.map(([name, value]) => ({ name, values: [value] }));
  return {
    url: request.url,
    method: request.method,
    ...(request.headers.length && { headers: list(request.headers) }),
    ...(request.cookies.length && { cookies: list(request.cookies) }),
    ...(request.query.length && { query_parameters: list(request.query) }),
    ...(request.body !== undefined && { body: request.body }),
  };
}

/** `{{username}}` back to the recorded login, when the user is named otherwise. */
function relogin(body: unknown, login: string): unknown {
  if (typeof body === 'string') return body.split('{{username}}').join(login);
  if (Array.isArray(body)) return body.map((item) => relogin(item, login));
  if (body !== null && typeof body === 'object') return Object.fromEntries(Object.entries(body).map(([k, v]) => [k, relogin(v, login)]));
  return body;
}

function validationUrl(url: URL): string {
  const clean = [...url.searchParams].every(([, value]) => !looksSecret(value));
  return clean ? url.href.replace(/#.*$/, '') : `${url.origin}${url.pathname}`;
}

