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
}

/**
 * Turns scope entries into route globs and cookie hosts. An origin (`https://app.test:8443`) becomes
 * `https://app.test:8443/**`; anything with a path or a wildcard is a glob already.
 *
 * @example
 * resolveScope(['https://app.test'], undefined); // { globs: ['https://app.test/**'], hosts: ['app.test'] }
 * resolveScope([], 'http://127.0.0.1:4010/app'); // { globs: ['http://127.0.0.1:4010/**'], hosts: ['127.0.0.1'] }
 */
export function resolveScope(entries: string[], baseURL: string | undefined): ResolvedScope {
  const list = entries.length ? entries : baseURL ? [new URL(baseURL).origin] : [];
  if (list.length === 0) return { globs: ['**/*'], hosts: [] };
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
  return { globs, hosts: [...hosts] };
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
