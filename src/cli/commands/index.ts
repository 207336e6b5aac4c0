import { lazyModule } from '../../core/lazy-module.js';
import type { Command, CommandUsage } from '../command.js';
import { checkUsage } from './usage/check.js';
import { draftUsage } from './usage/draft.js';
import { loginUsage } from './usage/login.js';
import { mailSinkUsage } from './usage/mail-sink.js';
import { matrixUsage } from './usage/matrix.js';
import { passkeyUsage } from './usage/passkey.js';
import { replayUsage } from './usage/replay.js';
import { schemaUsage } from './usage/schema.js';
import { typesUsage } from './usage/types.js';
import { usersUsage } from './usage/users.js';
import { validateUsage } from './usage/validate.js';

/**
 * A command whose module (and the layers it imports: zod, yaml, the HTTP client) is loaded when it
 * runs: starting the CLI for `--help` or `validate` loaded every command and cost 0.6 s of CPU.
 */
function lazyCommand(usage: CommandUsage, load: () => Promise<Command>): Command {
  return { ...usage, run: async (input) => (await load()).run(input) };
}

/**
 * Every command of `multiauth`, in the order help lists them. Adding a command is its usage in
 * `usage/` and one line here.
 */
export const commands: readonly Command[] = [
  lazyCommand(validateUsage, async () => (await lazyModule(() => import('./validate.js'))).validateCommand),
  lazyCommand(loginUsage, async () => (await lazyModule(() => import('./login.js'))).loginCommand),
  lazyCommand(checkUsage, async () => (await lazyModule(() => import('./check.js'))).checkCommand),
  lazyCommand(matrixUsage, async () => (await lazyModule(() => import('./matrix.js'))).matrixCommand),
  lazyCommand(replayUsage, async () => (await lazyModule(() => import('./replay.js'))).replayCommand),
  lazyCommand(draftUsage, async () => (await lazyModule(() => import('./draft.js'))).draftCommand),
  lazyCommand(usersUsage, async () => (await lazyModule(() => import('./users.js'))).usersCommand),
  lazyCommand(typesUsage, async () => (await lazyModule(() => import('./types.js'))).typesCommand),
  lazyCommand(passkeyUsage, async () => (await lazyModule(() => import('./passkey.js'))).passkeyCommand),
  lazyCommand(mailSinkUsage, async () => (await lazyModule(() => import('./mail-sink.js'))).mailSinkCommand),
  lazyCommand(schemaUsage, async () => (await lazyModule(() => import('./schema.js'))).schemaCommand),
];
