import { ConfigInvalidError } from '../../core/errors.js';
import { openCliConfig, renderIssues } from '../check-config.js';
import { configOption, type Command } from '../command.js';
import { ExitCode } from '../io.js';

/**
 * `multiauth users [-c FILE]`: the configured user names, one a line, in declaration order
 * (preset users first), for shell loops. Exit 2 with the issues on stderr when the config is invalid.
 *
 * @example
 * await main(['users', '-c', 'examples/procedures.yaml'], io); // prints "admin\nviewer\n"
 */
export const usersCommand: Command = {
  name: 'users',
  summary: 'list the configured users, one name a line',
  arguments: '[-c FILE]',
  options: { config: configOption },
  positionals: { min: 0, max: 0 },
  async run({ values, io }) {
    try {
      const { plan } = await openCliConfig(values.config as string | undefined, io, { checks: false });
      io.stdout.write(plan.users.map((user) => `${user.name}\n`).join(''));
      return ExitCode.OK;
    } catch (error) {
      if (!(error instanceof ConfigInvalidError)) throw error;
      io.stderr.write(renderIssues(error.issues, io.cwd, error.file));
      return ExitCode.INVALID;
    }
  },
};
