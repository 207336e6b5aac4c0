import { resolve } from 'node:path';
import type { Plan } from '../../compile/index.js';
import { ANONYMOUS } from '../../config/index.js';
import { MultiAuthError } from '../../core/errors.js';
import type { CommandInput } from '../command.js';
import { ExitCode, type CliIo } from '../io.js';
import { draftAccessRequests, readOpenApi } from './from-openapi.js';

/**
 * `multiauth matrix --from-openapi FILE [--unsafe] [--owner NAME]`: prints the drafted
 * `access.requests` on stdout; reads no config.
 *
 * @throws MultiAuthError `CLI_USAGE` when combined with `--update`; `OPENAPI_INVALID` for the file.
 * @example
 * await draftCommandRun({ 'from-openapi': 'openapi.yaml' }, io); // prints "access:\n  requests:\n ..."
 */
export async function draftCommandRun(values: CommandInput['values'], io: CliIo): Promise<number> {
  if (values.update) {
    throw new MultiAuthError('CLI_USAGE', '--from-openapi drafts requests and runs nothing: it cannot be combined with --update', {
      hint: 'Add the drafted requests to the config first, then run multiauth matrix --update.',
    });
  }
  const api = await readOpenApi(resolve(io.cwd, values['from-openapi'] as string));
  io.stdout.write(draftAccessRequests(api, {
    unsafe: values.unsafe === true,
    ...(typeof values.owner === 'string' ? { owner: values.owner } : {}),
  }));
  return ExitCode.OK;
}

/**
 * Who `--update` runs: the users `access.expect` lists, in its order, then every other configured
 * user, then `anonymous`: a first recording needs no hand-written row.
 *
 * @example
 * usersToRecord(plan); // ['admin', 'editor', 'viewer', 'anonymous']
 */
export function usersToRecord(plan: Plan): string[] {
  const listed = plan.access?.users ?? [];
  const rest = plan.users.map((user) => user.name).filter((name) => !listed.includes(name));
  return [...listed, ...rest, ...(listed.includes(ANONYMOUS) ? [] : [ANONYMOUS])];
}

/**
 * Refuses `--unsafe` and `--owner` without `--from-openapi`, which they shape.
 *
 * @throws MultiAuthError `CLI_USAGE`.
 * @example
 * checkDraftOnlyOptions(values); // throws for `multiauth matrix --unsafe`
 */
export function checkDraftOnlyOptions(values: CommandInput['values']): void {
  const stray = ['unsafe', 'owner'].find((name) => values[name] !== undefined);
  if (stray && values['from-openapi'] === undefined) {
    throw new MultiAuthError('CLI_USAGE', `--${stray} shapes what --from-openapi drafts: it means nothing without it`, {
      hint: 'Pass --from-openapi FILE, or leave --' + stray + ' out.',
    });
  }
}
