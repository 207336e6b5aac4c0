import { formatJsonSchema } from '../../config/index.js';
import type { Command } from '../command.js';
import { schemaUsage } from './usage/schema.js';
import { ExitCode } from '../io.js';

/**
 * `multiauth schema`: the JSON Schema of the config format (the same as `docs/schema.json`), for
 * editors and other tools.
 *
 * @example
 * await main(['schema'], io); // prints {"$schema": "https://json-schema.org/draft/2020-12/schema", ...}
 */
export const schemaCommand: Command = {
  ...schemaUsage,
  async run({ io }) {
    io.stdout.write(`${JSON.stringify(formatJsonSchema(), null, 2)}\n`);
    return ExitCode.OK;
  },
};
