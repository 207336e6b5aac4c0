import type { Command } from '../command.js';
import { checkCommand } from './check.js';
import { draftCommand } from './draft.js';
import { loginCommand } from './login.js';
import { mailSinkCommand } from './mail-sink.js';
import { matrixCommand } from './matrix.js';
import { passkeyCommand } from './passkey.js';
import { schemaCommand } from './schema.js';
import { typesCommand } from './types.js';
import { usersCommand } from './users.js';
import { validateCommand } from './validate.js';

/**
 * Every command of `multiauth`, in the order help lists them. Adding a command is one line here.
 */
export const commands: readonly Command[] = [
  validateCommand,
  loginCommand,
  checkCommand,
  matrixCommand,
  draftCommand,
  usersCommand,
  typesCommand,
  passkeyCommand,
  mailSinkCommand,
  schemaCommand,
];
