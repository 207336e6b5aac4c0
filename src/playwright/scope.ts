/**
 * Where a signed-in browser context sends injected credentials (DESIGN.md "Where injected
 * credentials go"): the config's `scope` (origins or URL globs), else the origin of Playwright's
 * `baseURL`, else every request, as Playwright's own `extraHTTPHeaders` would.
 */
export interface ResolvedScope {
  /** URL globs for `context.route`; `['**\/*']` means every request. */
  globs: string[];
  /** Hosts that cookies without a domain are set for; empty when the scope is every request. */
  hosts: string[];
  /**
   * The globs as Playwright matches them (a relative one resolved against `baseURL`, scheme and
   * host lower-cased), for the origins they reach (core/origin-glob.ts); a relative glob without
   * `baseURL` matches no URL and is left out.
   */
  origins: string[];
}

/**
 * Turns scope entries into route globs and cookie hosts. An origin (`https://app.test:8443`) becomes
 * `https://app.test:8443/**`; anything with a path or a wildcard is a glob already.
 *
 * @example
 * resolveScope(['https://app.test'], undefined); // { globs: ['https://app.test/**'], hosts: ['app.test'], origins: ['https://app.test/**'] }
 * resolveScope([], 'http://127.0.0.1:4010/app'); // { globs: ['http://127.0.0.1:4010/**'], hosts: ['127.0.0.1'], origins: [...the same] }
 */
export function resolveScope(entries: string[], baseURL: string | undefined): ResolvedScope {
  const list = entries.length ? entries : baseURL ? [new URL(baseURL).origin] : [];
  if (list.length === 0) return { globs: ['**/*'], hosts: [], origins: ['**/*'] };
  const globs: string[] = [];
  const hosts = new Set<string>();
  for (const entry of list) {
    const origin = asOrigin(entry);
    if (origin) {
      globs.push(`${origin.origin}/**`);
      hosts.add(origin.hostname);
    } else {
      globs.push(entry);
      const host = /^[a-z][a-z0-9+.-]*:\/\/([^/:*?]+)(?::\d+)?\//i.exec(entry)?.[1];
      if (host) hosts.add(host);
    }
  }
  const origins = globs.map((glob) => resolvedGlob(glob, baseURL)).filter((glob) => glob !== undefined);
  return { globs, hosts: [...hosts], origins };
}

/**
 * A glob as Playwright's `context.route` reads it against `baseURL`: one that starts with `*` as
 * it is; an absolute one with its scheme and host lower-cased (URLs have them so); a relative one
 * on `baseURL`'s origin (only its origin matters here), none without `baseURL`.
 */
function resolvedGlob(glob: string, baseURL: string | undefined): string | undefined {
  if (glob.startsWith('*')) return glob;
  if (glob.split('/', 1)[0]?.endsWith(':')) {
    const origin = /^[^/]*\/\/[^/]*/.exec(glob)?.[0] ?? '';
    return origin.toLowerCase() + glob.slice(origin.length);
  }
  if (!baseURL) return undefined;
  const base = new URL(baseURL);
  if (glob.startsWith('//')) return resolvedGlob(`${base.protocol}${glob}`, undefined);
  return `${base.origin}/**`;
}

function asOrigin(entry: string): URL | undefined {
  if (/[*?{]/.test(entry)) return undefined;
  try {
    const url = new URL(entry);
    return url.pathname === '/' && !url.search && !entry.endsWith('/?') ? url : undefined;
  } catch {
    return undefined;
  }
}
