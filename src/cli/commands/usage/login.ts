import { configOption, type CommandUsage } from '../../command.js';

/** What `multiauth help` shows of `login` and what its command line is parsed against; `../login.ts` runs it. */
export const loginUsage: CommandUsage = {
  name: 'login',
  summary: 'sign a user in and print the session (secrets masked unless --reveal)',
  arguments: '(USER | --all --out DIR) [-c FILE] [--json] [--reveal] [--verbose] [--browser-path P]',
  description:
    'Signs USER in exactly as the Playwright fixtures do, and prints what every authenticated\n' +
    'request will carry: headers, cookies, query parameters, body fields, and when it expires.\n' +
    'Secret values are masked unless --reveal. --json prints\n' +
    '{"user","headers","cookies","query","body","expiresAt"} for scripts (docs/cli.md).\n' +
    '--verbose prints each step on stderr as it runs: requests without query values,\n' +
    'statuses, times, the names of what was extracted, the injections, the session check.\n' +
    '--all --out DIR signs every user in (a few at a time) and writes their sessions, sealed with\n' +
    'MULTIAUTH_CACHE_KEY, into DIR: a bundle shards use as MULTIAUTH_CACHE_DIR (docs/caching.md).\n' +
    'With --json a failure prints {"ok": false, "error"} on stdout.\n' +
    'Exit 0 signed in, 1 sign-in failed, 2 invalid config or unknown user.',
  options: {
    config: configOption,
    json: { type: 'boolean', description: 'print the session as JSON' },
    reveal: { type: 'boolean', description: 'print secret values instead of ********' },
    verbose: { type: 'boolean', short: 'v', description: 'print each step of the sign-in on stderr as it runs (secrets masked)' },
    all: { type: 'boolean', description: 'every user of the config (with --out)' },
    out: { type: 'string', valueName: 'DIR', description: 'write the sessions, sealed, into DIR: a bundle for sharded runs' },
    parallel: { type: 'string', valueName: 'N', description: 'with --all: sign-ins at once (default 4)' },
    'browser-path': { type: 'string', description: 'browser for browser sign-ins (default MULTIAUTH_BROWSER_PATH, then Playwright\'s)' },
  },
  positionals: { min: 0, max: 1 },
};
