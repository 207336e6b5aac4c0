import { maskStrings } from '../../core/redactor.js';
import type { ObservedCookie } from '../../runtime/index.js';
import type { Session } from '../../runtime/index.js';
import { sessionHeaders } from '../../runtime/index.js';

/**
 * The session as `multiauth login --json` prints it (docs/cli.md): `user`, `headers`
 * (`{name: [values]}`), `cookies` (`[{name, value, domain?, path?, ...}]`), `query`, `body`
 * (`{merge?, set}`) and `expiresAt` (Unix ms, or null). Every string is passed through `mask`
 * (the redactor, or nothing with `--reveal`).
 *
 * @example
 * JSON.stringify(sessionJson(session, (text) => redactor.redact(text)));
 */
export function sessionJson(session: Session, mask: (text: string) => string): Record<string, unknown> {
  return maskStrings(
    {
      user: session.user,
      headers: session.headers,
      cookies: session.cookies,
      query: session.query,
      body: session.body,
      expiresAt: session.expiresAt,
    },
    mask,
  ) as Record<string, unknown>;
}

/**
 * The session for people: who, how it came, when it expires, then what every authenticated request
 * will carry, headers as `applySession` sends them (one line per name, several values joined).
 * Values go through `mask`.
 *
 * @example
 * io.stdout.write(sessionText(session, { procedure: 'login', now: Date.now(), mask: (t) => redactor.redact(t) }));
 */
export function sessionText(session: Session, opts: { procedure?: string; now: number; mask: (text: string) => string }): string {
  const { mask } = opts;
  const lines = [
    `user:     ${session.user}`,
    `how:      ${describeHow(opts.procedure, session.origin)}`,
    `expires:  ${describeExpiry(session.expiresAt, opts.now)}`,
  ];
  const section = (title: string, entries: string[]) => {
    lines.push(`${title}:${entries.length ? '' : ' (none)'}`);
    for (const entry of entries) lines.push(`  ${entry}`);
  };
  section('headers', sessionHeaders(session).map(([name, value]) => `${name}: ${headerValue(name, value, mask)}`));
  section('cookies', session.cookies.map((cookie) => `${cookie.name}=${mask(cookie.value)}${cookieAttributes(cookie)}`));
  section('query', Object.entries(session.query).flatMap(([name, values]) => values.map((value) => `${name}=${mask(value)}`)));
  const body = [
    ...(session.body.merge === undefined ? [] : [`merge ${JSON.stringify(maskStrings(session.body.merge, mask))}`]),
    ...Object.entries(session.body.set).map(([path, value]) => `set ${path} = ${mask(value)}`),
  ];
  section('body', body);
  if (session.origins.length) section('localStorage', session.origins.map((o) => `${o.origin}: ${o.localStorage.length} item(s)`));
  if (session.digest) lines.push(`digest:   answers challenges of realm "${session.digest.realm ?? '?'}" as ${session.digest.username}`);
  return `${lines.join('\n')}\n`;
}

/** `Authorization: Bearer ********`: the scheme is not a secret, and saying it helps. */
function headerValue(name: string, value: string, mask: (text: string) => string): string {
  const scheme = name.toLowerCase() === 'authorization' ? /^(Basic|Bearer|Digest|Token|JWT) (.+)$/i.exec(value) : null;
  return scheme ? `${scheme[1]} ${mask(scheme[2] as string)}` : mask(value);
}

/**
 * How a session came, in words: `signed in by procedure "login"`, `refreshed by ...`, or static
 * credentials for a user without a procedure.
 *
 * @example
 * describeHow('login', 'signed-in'); // 'signed in by procedure "login"'
 */
export function describeHow(procedure: string | undefined, origin: Session['origin']): string {
  const verb = origin === 'refreshed' ? 'refreshed' : 'signed in';
  return procedure === undefined ? 'static credentials (no sign-in request)' : `${verb} by procedure "${procedure}"`;
}

/**
 * When a session expires, in words, with the time left.
 *
 * @example
 * describeExpiry(null, Date.now()); // 'never (lasts the run)'
 */
export function describeExpiry(expiresAt: number | null, now: number): string {
  if (expiresAt === null) return 'never (lasts the run)';
  const seconds = Math.round((expiresAt - now) / 1000);
  const left = seconds <= 0 ? 'expired' : seconds < 120 ? `in ${seconds} s` : `in ${Math.round(seconds / 60)} min`;
  return `${new Date(expiresAt).toISOString()} (${left})`;
}

function cookieAttributes(cookie: ObservedCookie): string {
  const parts = [
    cookie.domain && `domain ${cookie.domain}`,
    cookie.path && `path ${cookie.path}`,
    cookie.httpOnly && 'HttpOnly',
    cookie.secure && 'Secure',
    cookie.sameSite && `SameSite=${cookie.sameSite}`,
  ].filter(Boolean);
  return parts.length ? ` (${parts.join(', ')})` : '';
}
