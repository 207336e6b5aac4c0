import { formatPath, type ConfigPath } from './path.js';
import { redactedUrl } from './urls.js';

/**
 * Stable error codes. Scripts and tests match on these, never on message text.
 * Add a code here when a new kind of failure appears; never reuse one for another meaning.
 */
export const ErrorCode = {
  /** The config file does not exist or cannot be read. */
  CONFIG_NOT_FOUND: 'CONFIG_NOT_FOUND',
  /** The config file is not valid YAML or JSON. */
  CONFIG_SYNTAX: 'CONFIG_SYNTAX',
  /** The config exceeds a limit (size, expanded aliases) or is not a regular file. */
  CONFIG_LIMIT: 'CONFIG_LIMIT',
  /** The config does not match the format (schema or cross-checks). */
  CONFIG_INVALID: 'CONFIG_INVALID',
  /** `${NAME}` names an environment variable that is not set. */
  CONFIG_ENV_MISSING: 'CONFIG_ENV_MISSING',
  /** A user name that the config does not declare. */
  USER_UNKNOWN: 'USER_UNKNOWN',
  /** `{{name}}` names a variable that is not defined at that point. */
  TEMPLATE_UNKNOWN_VARIABLE: 'TEMPLATE_UNKNOWN_VARIABLE',
  /** A `{{ }}` expression that does not parse, or calls an unknown function or with the wrong arguments. */
  TEMPLATE_INVALID: 'TEMPLATE_INVALID',
  /** A template function refused its arguments (a TOTP secret that is not base32). */
  TEMPLATE_FUNCTION_FAILED: 'TEMPLATE_FUNCTION_FAILED',
  /** A curl command could not be parsed. */
  CURL_PARSE: 'CURL_PARSE',
  /** A curl command uses an option the simulator does not support. */
  CURL_UNSUPPORTED_OPTION: 'CURL_UNSUPPORTED_OPTION',
  /** A curl command tries something the sandbox forbids (shell operators, files, other schemes). */
  CURL_FORBIDDEN: 'CURL_FORBIDDEN',
  /** A Selenium IDE command that the browser runner does not support. */
  BROWSER_UNKNOWN_COMMAND: 'BROWSER_UNKNOWN_COMMAND',
  /** A browser step failed (element not found, assertion failed, timeout). */
  BROWSER_STEP_FAILED: 'BROWSER_STEP_FAILED',
  /** An extraction found no value. */
  EXTRACTION_NOT_FOUND: 'EXTRACTION_NOT_FOUND',
  /** An injection names a variable that was never set. */
  INJECTION_VARIABLE_UNSET: 'INJECTION_VARIABLE_UNSET',
  /** The server answered a sign-in request with an HTTP status of 400 or more. */
  AUTH_HTTP_STATUS: 'AUTH_HTTP_STATUS',
  /** The server answered 2xx but the protocol says the sign-in failed (GraphQL errors, Cognito challenge...). */
  AUTH_PROTOCOL: 'AUTH_PROTOCOL',
  /** The sign-in went through but the session check (`validation`) says the session does not work. */
  AUTH_VALIDATION: 'AUTH_VALIDATION',
  /** The sign-in request could not be sent or its response not read (DNS, refused, reset, TLS). */
  AUTH_NETWORK: 'AUTH_NETWORK',
  /** The sign-in request took longer than its timeout. */
  AUTH_TIMEOUT: 'AUTH_TIMEOUT',
  /** A `tech: email` step waited its `wait_for_seconds` and no matching mail arrived. */
  EMAIL_TIMEOUT: 'EMAIL_TIMEOUT',
  /** Too many redirects, or a redirect that cannot be followed. */
  AUTH_REDIRECT: 'AUTH_REDIRECT',
  /** A passkey (`passkey`) did not sign the user in: a key that does not parse, an rp_id the site does not match, a refused assertion. */
  AUTH_PASSKEY: 'AUTH_PASSKEY',
  /** A user has a passkey and the Playwright in use has no virtual authenticator (`context.credentials`, 1.61+). */
  PASSKEY_UNSUPPORTED: 'PASSKEY_UNSUPPORTED',
  /** A digest challenge the client cannot answer (unknown algorithm or qop, missing nonce). */
  DIGEST_UNSUPPORTED: 'DIGEST_UNSUPPORTED',
  /** The session cache could not be read, written or locked. */
  SESSION_CACHE: 'SESSION_CACHE',
  /** A bug of this package met during a sign-in (reported with the user and step, never a stack). */
  INTERNAL: 'INTERNAL',
  /** A command-line usage mistake. */
  CLI_USAGE: 'CLI_USAGE',
  /** A spec uses a fixture as an earlier version had it (`signInAs(user).page.goto(...)` on the promise of the page). */
  SPEC_USAGE: 'SPEC_USAGE',
  /** `multiauth matrix --from-openapi FILE`: the file is not a readable OpenAPI 3 document. */
  OPENAPI_INVALID: 'OPENAPI_INVALID',
  /** A cell of the access matrix got another answer than `access.expect` says (docs/access.md). */
  ACCESS_UNEXPECTED: 'ACCESS_UNEXPECTED',
  /** `multiauth draft --har FILE`: the file is not a HAR (not JSON, not HAR 1.2's shape, a `__proto__` key). */
  HAR_INVALID: 'HAR_INVALID',
  /** `multiauth draft --har FILE`: the HAR exceeds a bound (size, entries, nesting, headers, body). */
  HAR_LIMIT: 'HAR_LIMIT',
  /** `multiauth draft`: the HAR holds no sign-in the drafter recognises, or nothing signed in after it. */
  DRAFT_NO_SIGN_IN: 'DRAFT_NO_SIGN_IN',
  /** Mail cannot be read: no mail sink listening, the sink's port taken, Mailpit or maildev unreachable or answering otherwise than its API. */
  MAIL_UNAVAILABLE: 'MAIL_UNAVAILABLE',
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** Where in a config file something is, for compiler-style messages. */
export interface SourceLocation {
  file: string;
  line: number;
  column: number;
}

/** What an authentication error concerns: who, which procedure, which step, which exchange. */
export interface AuthContext {
  user?: string;
  procedure?: string;
  /** Zero-based operation index within the procedure. */
  step?: number;
  /** What the step is, e.g. `http`, `digest`, `browser command 3 (click)`. */
  stepKind?: string;
  method?: string;
  url?: string;
  status?: number;
}

/** Constructor options of {@link MultiAuthError}. */
export interface MultiAuthErrorOptions {
  /** Path inside the config the error concerns. */
  path?: ConfigPath;
  /** Source position of `path`, when known. */
  location?: SourceLocation;
  /** User, procedure and step, for authentication errors. */
  context?: AuthContext;
  /** One line that tells the user what to do ("Recommended fix"). */
  hint?: string;
  /** Extra lines shown under the message (already redacted by whoever built them). */
  details?: string[];
  cause?: unknown;
}

/**
 * The one error class of playwright-multiauth. Everything a user can cause is one of these, with a
 * stable {@link ErrorCode}; anything else that escapes is a bug in this package.
 *
 * `message` is the short statement; {@link MultiAuthError.render} gives the full text with the
 * location, the context and the hint, and is what the CLI and the fixtures print.
 *
 * @example
 * throw new MultiAuthError('EXTRACTION_NOT_FOUND', 'no header "x-token" in the response', {
 *   context: { user: 'alice', procedure: 'login', step: 0 },
 *   hint: 'Check the extraction key against what the server sends (multiauth login alice --reveal).',
 * });
 */
export class MultiAuthError extends Error {
  override readonly name = 'MultiAuthError';
  readonly code: ErrorCode;
  readonly path?: ConfigPath;
  readonly location?: SourceLocation;
  readonly context?: AuthContext;
  readonly hint?: string;
  readonly details: string[];

  constructor(code: ErrorCode, message: string, options: MultiAuthErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.path = options.path;
    this.location = options.location;
    this.context = options.context;
    this.hint = options.hint;
    this.details = options.details ?? [];
  }

  /** The full, user-facing text: where, what, details, and the recommended fix. */
  render(): string {
    return renderError(this);
  }
}

/** One problem found in a config file; {@link ConfigInvalidError} carries all of a file's at once. */
export interface ConfigIssue {
  severity: 'error' | 'warning';
  path: ConfigPath;
  message: string;
  location?: SourceLocation;
  hint?: string;
}

/**
 * A config that cannot be used: every problem of the file, each with its position.
 *
 * @example
 * // multiauth.yaml:14:7  presets[2].users[0].password: expected string, got number
 */
export class ConfigInvalidError extends MultiAuthError {
  /** The config file, as the caller named it. */
  readonly file: string;
  readonly issues: ConfigIssue[];

  /**
   * @param code `CONFIG_INVALID` by default; `CONFIG_SYNTAX` when the file cannot be parsed,
   * `CONFIG_ENV_MISSING` when the only errors are unset environment variables.
   */
  constructor(file: string, issues: ConfigIssue[], code: ErrorCode = 'CONFIG_INVALID') {
    const errors = issues.filter((i) => i.severity === 'error');
    super(code, `${file}: ${errors.length} error${errors.length === 1 ? '' : 's'} in the config`);
    this.file = file;
    this.issues = issues;
  }

  override render(): string {
    return this.issues.map(renderIssue).join('\n');
  }
}

/**
 * Renders one config issue as a compiler would: `file:line:col  path: message`.
 *
 * @example
 * renderIssue({ severity: 'error', path: ['users', 0, 'name'], message: 'required',
 *   location: { file: 'multiauth.yaml', line: 3, column: 5 } });
 * // 'multiauth.yaml:3:5  users[0].name: required'
 */
export function renderIssue(issue: ConfigIssue): string {
  const where = issue.location
    ? `${issue.location.file}:${issue.location.line}:${issue.location.column}  `
    : '';
  const level = issue.severity === 'warning' ? 'warning: ' : '';
  const path = issue.path.length ? `${formatPath(issue.path)}: ` : '';
  const hint = issue.hint ? `\n    ${issue.hint}` : '';
  return `${where}${level}${path}${issue.message}${hint}`;
}

function renderContext(context: AuthContext): string {
  const parts: string[] = [];
  if (context.user !== undefined) parts.push(`user "${context.user}"`);
  if (context.procedure !== undefined) parts.push(`procedure "${context.procedure}"`);
  if (context.step !== undefined) {
    parts.push(`step ${context.step + 1}${context.stepKind ? ` (${context.stepKind})` : ''}`);
  }
  if (context.method !== undefined || context.url !== undefined) {
    // Whoever set the URL should have cut it already; this is the last place before it is shown.
    parts.push([context.method, context.url === undefined ? undefined : redactedUrl(context.url)].filter(Boolean).join(' '));
  }
  if (context.status !== undefined) parts.push(`HTTP ${context.status}`);
  return parts.join(', ');
}

/**
 * The single place where a {@link MultiAuthError} becomes text. Callers that hold secrets pass the
 * result through a {@link Redactor} before printing; messages are built without secrets anyway.
 */
export function renderError(error: MultiAuthError): string {
  const lines: string[] = [];
  const where = error.location
    ? `${error.location.file}:${error.location.line}:${error.location.column}  `
    : '';
  const path = error.path?.length ? `${formatPath(error.path)}: ` : '';
  lines.push(`${where}${path}${error.message}`);
  if (error.context) {
    const context = renderContext(error.context);
    if (context) lines.push(`  while signing in ${context}`);
  }
  for (const detail of error.details) lines.push(`  ${detail}`);
  if (error.hint) lines.push(`Recommended fix: ${error.hint}`);
  lines.push(`[${error.code}]`);
  return lines.join('\n');
}

/** True for errors this package raises on purpose (user mistakes, server answers); false for bugs. */
export function isMultiAuthError(error: unknown): error is MultiAuthError {
  return error instanceof MultiAuthError;
}
