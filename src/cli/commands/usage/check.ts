import { configOption, type CommandUsage } from '../../command.js';
import { DEFAULT_PARALLEL, MAX_PARALLEL } from '../bounded.js';

/** What `multiauth help` shows of `check` and what its command line is parsed against; `../check.ts` runs it. */
export const checkUsage: CommandUsage = {
  name: 'check',
  summary: 'sign every user in (a few at a time) and run their session checks; one line per user',
  arguments: '[USER...] [-c FILE] [--json] [--parallel N] [--browser-path P]',
  description:
    'Signs every user (or each USER named) in once, as the fixtures would, runs its session\n' +
    'check, and prints one line per user: how it signed in, the time it took, when the session\n' +
    'expires, or the error (the full errors follow on stderr, secrets masked). Nothing is\n' +
    'cached. A user whose part of the config needs an unset ${NAME} fails; the others still\n' +
    'sign in. --json prints {"ok", "users"} on stdout, or {"ok": false, "error"} when nothing\n' +
    'could be checked. Exit 0 all signed in, 1 any failed, 2 invalid config, unknown user,\n' +
    'an unset variable or a --browser-path that names no file.',
  options: {
    config: configOption,
    json: { type: 'boolean', description: 'print {"ok", "users": [{user, ok, how, checked, ms, expiresAt, error}]}' },
    parallel: { type: 'string', valueName: 'N', description: `sign-ins at once (default ${DEFAULT_PARALLEL}, at most ${MAX_PARALLEL})` },
    'browser-path': { type: 'string', description: 'browser for browser sign-ins (default MULTIAUTH_BROWSER_PATH, then Playwright\'s)' },
  },
  positionals: { min: 0, max: 10_000 },
};
