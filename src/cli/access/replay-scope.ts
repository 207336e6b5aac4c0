import type { Plan } from '../../compile/index.js';
import { compileOriginGlob, reachesOrigin } from '../../core/origin-glob.js';

/**
 * The origins `multiauth replay` may send to: those the config's `scope` reaches (an origin, or an
 * absolute URL glob; a relative glob has no `baseURL` to stand on here and reaches nothing), else
 * `signInOrigins` (where the users sign in and are checked): never an origin the config does not
 * name, so no session goes to a third party the recording happened to call.
 *
 * @example
 * const inScope = replayScope(plan, planOrigins(plan));
 * inScope('http://127.0.0.1:4010'); // true for `scope: ["http://127.0.0.1:4010"]`
 */
export function replayScope(plan: Plan, signInOrigins: readonly string[]): (origin: string) => boolean {
  if (plan.scope.length === 0) {
    const origins = new Set(signInOrigins);
    return (origin) => origins.has(origin);
  }
  const globs = plan.scope.flatMap((entry) => {
    const glob = compileOriginGlob(asGlob(entry));
    return glob === undefined ? [] : [glob];
  });
  return (origin) => globs.some((glob) => reachesOrigin(glob, origin));
}

/** An origin entry as the glob of its URLs; an absolute glob with its scheme and host lower-cased, as URLs have them. */
function asGlob(entry: string): string {
  if (!/[*?{]/.test(entry)) {
    const url = URL.parse(entry);
    if (url && url.pathname === '/' && !url.search) return `${url.origin}/**`;
  }
  const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/]*/i.exec(entry)?.[0] ?? '';
  return origin.toLowerCase() + entry.slice(origin.length);
}
