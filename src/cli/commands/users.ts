import { openCliConfig } from '../check-config.js';
import type { Command } from '../command.js';
import { usersUsage } from './usage/users.js';
import { ExitCode } from '../io.js';
import { jsonText } from '../json-output.js';

/**
 * `multiauth users [-c FILE] [--json]`: the configured user names, one a line, in declaration order
 * (preset users first), for shell loops (an unset `${NAME}` does not hide a name); `--json`: `{"ok": true, "users": [names]}`. Exit 2 with the
 * issues on stderr (and `{"ok": false, "error"}` with `--json`) when the config is invalid.
 *
 * @example
 * await main(['users', '-c', 'examples/procedures.yaml'], io); // prints "admin\nviewer\n"
 */
export const usersCommand: Command = {
  ...usersUsage,
  async run({ values, io }) {
    const { plan } = await openCliConfig(values.config as string | undefined, io, { checks: false, deferMissingEnv: true });
    const names = plan.users.map((user) => user.name);
    io.stdout.write(values.json ? jsonText({ ok: true, users: names }) : names.map((name) => `${name}\n`).join(''));
    return ExitCode.OK;
  },
};
