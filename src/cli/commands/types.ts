import { basename, resolve } from 'node:path';
import { loadUserTypes } from '../../sessions/index.js';
import { displayPath, openCliConfig, plural } from '../check-config.js';
import { jsonText } from '../json-output.js';
import { configOption, type Command } from '../command.js';
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
  name: 'types',
  summary: 'write the TypeScript declaration of the configured user names',
  arguments: '[-c FILE] [--out FILE] [--json]',
  description:
    'Writes a declaration file (default: beside the config, multiauth.d.ts for multiauth.yaml) that makes\n' +
    "authUser, signInAs(user) and authProjects({ users }) accept only the configured user names, so that\n" +
    "test.use({ authUser: 'alcie' }) fails to compile. The file must be part of the TypeScript project\n" +
    '(tsconfig.json "include"). The fixtures rewrite it when the users change (not when CI is set).',
  options: {
    config: configOption,
    out: { type: 'string', valueName: 'FILE', description: 'where to write the declaration (default: beside the config, NAME.d.ts)' },
    json: { type: 'boolean', description: 'print {"ok": true, "file", "written", "users"}' },
  },
  positionals: { min: 0, max: 0 },
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
