import { explainPlan } from '../../compile/index.js';
import { loadPasskeySealing } from '../../sessions/index.js';
import { displayPath, plural, renderIssues, usableConfig } from '../check-config.js';
import type { Command } from '../command.js';
import { validateUsage } from './usage/validate.js';
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
  ...validateUsage,
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
