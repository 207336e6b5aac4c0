import { configOption, type CommandUsage } from '../../command.js';

/** What `multiauth help` shows of `replay` and what its command line is parsed against; `../replay.ts` runs it. */
export const replayUsage: CommandUsage = {
  name: 'replay',
  summary: "replay a recorded session (a HAR) of one user as other users and anonymous; report who got the owner's answers",
  arguments: '--har FILE --user OWNER --as USER[,USER...] [-c FILE] [--json] [--unsafe] [--browser-path P]',
  description:
    'The access replay of accessReplay for a session recorded by hand (docs/access.md "Access\n' +
    'replay"): every request of the HAR that carried OWNER\'s credentials is sent again, with\n' +
    'them taken out (Cookie, Authorization, what OWNER\'s session sets) and each user\'s session\n' +
    'put in: first as OWNER, then as each USER of --as and as anonymous (always). Safe methods\n' +
    'only unless --unsafe, only to the scope\'s origins (without a scope: those the users sign\n' +
    'in at), no assets, one request per method and URL pattern, at most 500, one at a time.\n' +
    'Prints the table (findings first), or with --json the report of multiauth-access-replay.json.\n' +
    'Exit 0 no findings, 1 findings or a failed sign-in, 2 a config or usage mistake (an unknown\n' +
    'user, a HAR that is missing or invalid).',
  options: {
    config: configOption,
    har: { type: 'string', valueName: 'FILE', description: 'the recorded session of OWNER (HAR 1.2 JSON)' },
    user: { type: 'string', valueName: 'OWNER', description: 'the configured user the HAR was recorded as' },
    as: { type: 'string', valueName: 'USER[,USER...]', description: 'the users to replay as (anonymous is always replayed too)' },
    json: { type: 'boolean', description: 'print {"requests": [{owner, method, url, pattern, status, replays, findings}], "findings", "skipped"}' },
    unsafe: { type: 'boolean', description: 'replay methods other than GET, HEAD and OPTIONS too, in recorded order' },
    'browser-path': { type: 'string', description: 'browser for browser sign-ins (default MULTIAUTH_BROWSER_PATH, then Playwright\'s)' },
  },
  positionals: { min: 0, max: 0 },
};
