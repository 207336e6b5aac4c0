import { explainPlan } from '../../compile/index.js';
import { loadPasskeySealing } from '../../sessions/index.js';
import { displayPath, plural, renderIssues, usableConfig } from '../check-config.js';
import { configOption, type Command } from '../command.js';
import { ExitCode } from '../io.js';
import { jsonText } from '../json-output.js';

/**
 * `multiauth validate [-c FILE] [--explain] [--json]`: loads, compiles and checks the config without
 * signing anyone in. Exit 0 with `multiauth.yaml: N users, M procedures OK` on stdout (warnings on
 * stderr); exit 2 with every issue on stderr as `file:line:col  path: message`. `--explain` also
 * prints every user and its compiled procedure, secrets masked. `--json` prints the same as JSON
 * (errors too: `{"ok": false, "error"}`, printed by `main`).
 *
 * @example
 * await main(['validate', '-c', 'examples/procedures.yaml', '--explain'], io); // 0
 */
export const validateCommand: Command = {
  name: 'validate',
  summary: 'check the config (schema, references, variables, curl and browser commands); sends nothing',
  arguments: '[-c FILE] [--explain] [--json]',
  description:
    'Checks the config without signing anyone in: the schema, procedure and user references,\n' +
    'variables that are never defined, curl commands and browser commands. Prints\n' +
    '"FILE: N users, M procedures OK" and exits 0, or prints every problem as\n' +
    'file:line:col and exits 2. --json prints {"ok", "file", "users", "procedures", "warnings"}\n' +
    'or {"ok": false, "error"} on stdout instead (docs/cli.md).',
  options: {
    config: configOption,
    explain: { type: 'boolean', description: 'also print every user and its compiled sign-in procedure (secrets masked)' },
    json: { type: 'boolean', description: 'print {"ok", "file", "users", "procedures", "warnings", "explain"?} on stdout' },
  },
  positionals: { min: 0, max: 0 },
  async run({ values, io }) {
    const opened = await usableConfig(values.config as string | undefined, io);
    const { file, plan, redactor } = opened;
    // The environment this command sees is the one the tests will likely run in: a registered
    // passkey it would not seal fails its sign-in then, so say it now.
    const { unsealedPasskeyWarnings } = await loadPasskeySealing();
    const unsealed = unsealedPasskeyWarnings(plan, io.env).map((issue) => ({ ...issue, location: opened.loaded.locate(issue.path) }));
    if (unsealed.length) io.stderr.write(renderIssues(unsealed, io.cwd, undefined, redactor));
    const warnings = [...opened.warnings, ...unsealed];
    const procedures = Object.keys(plan.procedures).length;
    if (values.json) {
      io.stdout.write(jsonText({
        ok: true, file, users: plan.users.map((user) => user.name), procedures: Object.keys(plan.procedures), warnings,
        ...(values.explain ? { explain: explainPlan(plan, redactor) } : {}),
      }));
      return ExitCode.OK;
    }
    const warned = warnings.length ? ` (${plural(warnings.length, 'warning')})` : '';
    io.stdout.write(`${displayPath(file, io.cwd)}: ${plural(plan.users.length, 'user')}, ${plural(procedures, 'procedure')} OK${warned}\n`);
    if (values.explain) io.stdout.write(`\n${explainPlan(plan, redactor)}`);
    return ExitCode.OK;
  },
};
