import { configOption, type CommandUsage } from '../../command.js';

/** What `multiauth help` shows of `validate` and what its command line is parsed against; `../validate.ts` runs it. */
export const validateUsage: CommandUsage = {
  name: 'validate',
  summary: 'check the config (schema, references, variables, curl and browser commands); sends nothing',
  arguments: '[-c FILE] [--explain] [--json]',
  description:
    'Checks the config without signing anyone in: the schema, procedure and user references,\n' +
    'variables that are never defined, curl commands and browser commands. Prints\n' +
    '"FILE: N users, M procedures OK" and exits 0, or prints every problem as\n' +
    'file:line:col and exits 2. --json prints {"ok", "file", "users", "procedures", "warnings"}\n' +
    'or {"ok": false, "error"} on stdout instead (docs/cli.md).',
  options: {
    config: configOption,
    explain: { type: 'boolean', description: 'also print every user and its compiled sign-in procedure (secrets masked)' },
    json: { type: 'boolean', description: 'print {"ok", "file", "users", "procedures", "warnings", "explain"?} on stdout' },
  },
  positionals: { min: 0, max: 0 },
};
