/**
 * The warning for a Playwright `baseURL` at another origin than every place the config's users
 * sign in and are validated at, or undefined when one of them (or an entry of the config's
 * `scope`) is at `baseURL`'s origin. Then `check` passes while every test talks to another server
 * than the one its session is for (two sources for one URL: `.env` and `playwright.config.ts`).
 * Nothing to say without a `baseURL` or without any origin to compare (URLs made of `{{var}}`).
 *
 * @example
 * baseUrlMismatch('http://localhost:4000', ['http://localhost:3000'], [], '/repo/multiauth.yaml');
 * // 'playwright-multiauth: Playwright's baseURL is http://localhost:4000, but ...'
 */
export function baseUrlMismatch(baseURL: string | undefined, origins: readonly string[], scope: readonly string[], configFile: string): string | undefined {
  const base = baseURL === undefined ? undefined : URL.parse(baseURL)?.origin;
  if (base === undefined || base === 'null' || origins.length === 0) return undefined;
  if (origins.includes(base)) return undefined;
  if (scope.some((entry) => entry === base || entry.startsWith(`${base}/`) || URL.parse(entry)?.origin === base)) return undefined;
  const shown = origins.slice(0, 5).join(', ') + (origins.length > 5 ? `, and ${origins.length - 5} more` : '');
  return (
    `playwright-multiauth: warning: Playwright's baseURL is at ${base}, but the users of ${configFile} sign in and are validated at ${shown}: ` +
    'the tests would send their requests to another server than the one their sessions are for (shown once per run).\n' +
    '    Recommended fix: read both from one place: `const env = multiauthEnv();` and `use: { baseURL: env.BASE_URL }` in playwright.config.ts, ' +
    `with the config's URLs written as \${BASE_URL}/...; if the app is at another origin than its sign-in on purpose, list ${base} in the config's \`scope\`.\n`
  );
}
