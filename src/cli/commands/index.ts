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
  lazyCommand(validateUsage, async () => (await lazyModule<typeof import('./validate.js')>('./validate.js', () => import('./validate.js'))).validateCommand),
  lazyCommand(loginUsage, async () => (await lazyModule<typeof import('./login.js')>('./login.js', () => import('./login.js'))).loginCommand),
  lazyCommand(checkUsage, async () => (await lazyModule<typeof import('./check.js')>('./check.js', () => import('./check.js'))).checkCommand),
  lazyCommand(matrixUsage, async () => (await lazyModule<typeof import('./matrix.js')>('./matrix.js', () => import('./matrix.js'))).matrixCommand),
  lazyCommand(replayUsage, async () => (await lazyModule<typeof import('./replay.js')>('./replay.js', () => import('./replay.js'))).replayCommand),
  lazyCommand(draftUsage, async () => (await lazyModule<typeof import('./draft.js')>('./draft.js', () => import('./draft.js'))).draftCommand),
  lazyCommand(usersUsage, async () => (await lazyModule<typeof import('./users.js')>('./users.js', () => import('./users.js'))).usersCommand),
  lazyCommand(typesUsage, async () => (await lazyModule<typeof import('./types.js')>('./types.js', () => import('./types.js'))).typesCommand),
  lazyCommand(passkeyUsage, async () => (await lazyModule<typeof import('./passkey.js')>('./passkey.js', () => import('./passkey.js'))).passkeyCommand),
  lazyCommand(mailSinkUsage, async () => (await lazyModule<typeof import('./mail-sink.js')>('./mail-sink.js', () => import('./mail-sink.js'))).mailSinkCommand),
  lazyCommand(schemaUsage, async () => (await lazyModule<typeof import('./schema.js')>('./schema.js', () => import('./schema.js'))).schemaCommand),
];
