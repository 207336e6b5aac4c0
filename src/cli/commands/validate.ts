import { explainPlan } from '../../compile/index.js';
import { displayPath, plural, usableConfig } from '../check-config.js';
import { configOption, type Command } from '../command.js';
import { ExitCode } from '../io.js';

/**
 * `multiauth validate [-c FILE] [--explain]`: loads, compiles and checks the config without
 * signing anyone in. Exit 0 with `multiauth.yaml: N users, M procedures OK` on stdout (warnings on
 * stderr); exit 2 with every issue on stderr as `file:line:col  path: message`. `--explain` also
 * prints every user and its compiled procedure, secrets masked.
 *
 * @example
 * await main(['validate', '-c', 'examples/procedures.yaml', '--explain'], io); // 0
 */
export const validateCommand: Command = {
  name: 'validate',
  summary: 'check the config (schema, references, variables, curl and browser commands); sends nothing',
  arguments: '[-c FILE] [--explain]',
  description:
    'Checks the config without signing anyone in: the schema, procedure and user references,\n' +
    'variables that are never defined, curl commands and browser commands. Prints\n' +
    '"FILE: N users, M procedures OK" and exits 0, or prints every problem as\n' +
    'file:line:col and exits 2.',
  options: {
    config: configOption,
    explain: { type: 'boolean', description: 'also print every user and its compiled sign-in procedure (secrets masked)' },
  },
  positionals: { min: 0, max: 0 },
  async run({ values, io }) {
    const opened = await usableConfig(values.config as string | undefined, io);
    if (!opened) return ExitCode.INVALID;
    const { file, plan, warnings, redactor } = opened;
    const procedures = Object.keys(plan.procedures).length;
    const warned = warnings.length ? ` (${plural(warnings.length, 'warning')})` : '';
    io.stdout.write(`${displayPath(file, io.cwd)}: ${plural(plan.users.length, 'user')}, ${plural(procedures, 'procedure')} OK${warned}\n`);
    if (values.explain) io.stdout.write(`\n${explainPlan(plan, redactor)}`);
    return ExitCode.OK;
  },
};
