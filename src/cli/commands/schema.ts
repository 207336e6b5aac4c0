import { formatJsonSchema } from '../../config/index.js';
import type { Command } from '../command.js';
import { ExitCode } from '../io.js';

/**
 * `multiauth schema`: the JSON Schema of the config format (the same as `docs/schema.json`), for
 * editors and other tools.
 *
 * @example
 * await main(['schema'], io); // prints {"$schema": "https://json-schema.org/draft/2020-12/schema", ...}
 */
export const schemaCommand: Command = {
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
  async run({ io }) {
    io.stdout.write(`${JSON.stringify(formatJsonSchema(), null, 2)}\n`);
    return ExitCode.OK;
  },
};
