import type { CommandUsage } from '../../command.js';

/** What `multiauth help` shows of `schema` and what its command line is parsed against; `../schema.ts` runs it. */
export const schemaUsage: CommandUsage = {
  name: 'schema',
  summary: 'print the JSON Schema of the config format',
  arguments: '[--json]',
  description:
    'Prints the JSON Schema of multiauth.yaml (the same as docs/schema.json in the package).\n' +
    'Editors use it for completion and checks:\n' +
    '  # yaml-language-server: $schema=./node_modules/playwright-multiauth/docs/schema.json',
  // Accepted so that a script can pass --json to every command: the schema is JSON already.
  options: { json: { type: 'boolean', description: 'the same output (the schema is JSON already)' } },
  positionals: { min: 0, max: 0 },
};
