import { basename, resolve } from 'node:path';
import { loadUserTypes } from '../../sessions/index.js';
import { displayPath, openCliConfig, plural } from '../check-config.js';
import { jsonText } from '../json-output.js';
import type { Command } from '../command.js';
import { typesUsage } from './usage/types.js';
import { ExitCode } from '../io.js';

/**
 * `multiauth types [-c FILE] [--out FILE] [--json]`: writes the declaration file that narrows `authUser`,
 * `signInAs` and `authProjects({ users })` to the configured user names (default: beside the
 * config, `multiauth.d.ts` for `multiauth.yaml`). Leaves a file it did not write alone (exit 2).
 *
 * @example
 * await main(['types'], io); // prints "wrote multiauth.d.ts (2 users)"
 */
export const typesCommand: Command = {
  ...typesUsage,
  async run({ values, io }) {
    // An invalid config is main's to print (issues on stderr, `{"ok": false}` with --json): exit 2.
    const opened = await openCliConfig(values.config as string | undefined, io, { checks: false, deferMissingEnv: true });
    const { userTypesPath, writeUserTypes } = await loadUserTypes();
    const out = typeof values.out === 'string' ? resolve(io.cwd, values.out) : userTypesPath(opened.file);
    const names = opened.plan.users.map((user) => user.name);
    const done = writeUserTypes(out, names, basename(opened.file), displayPath(out, io.cwd));
    if (values.json) io.stdout.write(jsonText({ ok: true, file: out, written: done === 'written', users: names }));
    else io.stdout.write(`${done === 'written' ? 'wrote' : 'unchanged:'} ${displayPath(out, io.cwd)} (${plural(names.length, 'user')})\n`);
    return ExitCode.OK;
  },
};
