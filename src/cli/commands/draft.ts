import { dirname, join, resolve } from 'node:path';
import { MultiAuthError } from '../../core/errors.js';
import { draftFromHar, readHarFile, type Draft } from '../../draft/index.js';
import { displayPath, openCliConfig } from '../check-config.js';
import type { CliIo } from '../io.js';
import { ExitCode } from '../io.js';
import { jsonText } from '../json-output.js';
import type { Command } from '../command.js';
import { draftUsage } from './usage/draft.js';
import { checkCommand } from './check.js';
import { writeDraftFile, writeNewFile, type FileOutcome } from './draft-files.js';

/**
 * `multiauth draft --har FILE [--user NAME] [--out FILE] [--force] [--write-env] [--check] [--json]`:
 * drafts a config from a recorded sign-in (docs/draft.md), writes it (default `multiauth.yaml`,
 * never over an existing file without `--force`, never through a link) with `.env.example` beside
 * it, validates it, prints the evidence of each decision (values masked) and the TODOs. `--write-env`
 * also writes the recorded secrets into `.env` beside it (0600; an existing `.env` is kept);
 * `--check` then signs the user in with the draft, as `multiauth check` does. Exit 0 drafted (and
 * signed in), 1 the check's sign-in failed, 2 not a HAR, no sign-in found, or the output exists.
 *
 * @example
 * await main(['draft', '--har', 'login.har', '--check'], io);
 */
export const draftCommand: Command = {
  ...draftUsage,
  async run({ values, io }) {
    const har = values.har;
    if (typeof har !== 'string' || har === '') {
      throw new MultiAuthError('CLI_USAGE', 'draft needs --har FILE', { hint: 'Record the sign-in as HAR (docs/draft.md), then: multiauth draft --har login.har' });
    }
    const draft = draftFromHar(readHarFile(resolve(io.cwd, har), har), {
      source: har,
      ...(typeof values.user === 'string' && { user: values.user }),
      ...(values.webdriver === true && { webdriver: true }),
    });
    const out = resolve(io.cwd, typeof values.out === 'string' ? values.out : 'multiauth.yaml');
    const shown = displayPath(out, io.cwd);
    writeDraftFile(out, shown, draft.text, values.force === true);
    const exampleFile = join(dirname(out), '.env.example');
    const example = draft.envNames.length ? writeNewFile(exampleFile, draft.envExample, 0o644) : undefined;
    const envOutcome = values['write-env'] && draft.envNames.length ? writeNewFile(join(dirname(out), '.env'), draft.envFile, 0o600) : undefined;
    // The draft must load as users' configs do; secrets may be unset yet.
    await openCliConfig(out, io, { deferMissingEnv: true });

    if (!values.json) io.stdout.write(summary(draft, shown, displayPath(exampleFile, io.cwd), example, envOutcome));
    if (!values.check) {
      if (values.json) io.stdout.write(jsonText(jsonOutput(draft, out, exampleFile, example, envOutcome)));
      return ExitCode.OK;
    }
    const checked = await runCheck(out, draft.user, io, values.json === true);
    if (values.json) io.stdout.write(jsonText({ ...jsonOutput(draft, out, exampleFile, example, envOutcome), ok: checked.code === ExitCode.OK, check: checked.json }));
    return checked.code;
  },
};

function summary(draft: Draft, shown: string, exampleShown: string, example: FileOutcome | undefined, env: FileOutcome | undefined): string {
  const lines = draft.evidence.map((line) => `- ${line}`);
  for (const todo of draft.todos) lines.push(`TODO: ${todo}`);
  lines.push(`wrote ${shown} (${draft.form === 'procedure' ? 'a procedure' : `an ${draft.form} preset`}, user "${draft.user}")`);
  if (example === 'written') lines.push(`wrote ${exampleShown} (${draft.envNames.join(', ')}): set them in the environment or in .env`);
  if (example === 'kept') lines.push(`kept the existing ${exampleShown}; the draft reads ${draft.envNames.join(', ')}`);
  if (env === 'written') lines.push('wrote .env with the recorded secrets (mode 0600): keep it out of version control');
  if (env === 'kept') lines.push('.env exists and was left as it is: the recorded secrets were not written');
  return `${lines.join('\n')}\n`;
}

function jsonOutput(draft: Draft, out: string, exampleFile: string, example: FileOutcome | undefined, env: FileOutcome | undefined): Record<string, unknown> {
  return {
    ok: true,
    file: out,
    form: draft.form,
    user: draft.user,
    env: draft.envNames,
    envExample: example === undefined ? null : { file: exampleFile, written: example === 'written' },
    envWritten: env === undefined ? null : env === 'written',
    evidence: draft.evidence,
    todos: draft.todos,
  };
}

/** `multiauth check -c OUT USER`, as the user would run it next; its output captured for `--json`. */
async function runCheck(out: string, user: string, io: CliIo, json: boolean): Promise<{ code: number; json?: unknown }> {
  if (!json) {
    io.stdout.write('\n');
    return { code: await checkCommand.run({ values: { config: out }, positionals: [user], io }) };
  }
  let captured = '';
  const code = await checkCommand.run({ values: { config: out, json: true }, positionals: [user], io: { ...io, stdout: { write: (text: string) => (captured += text) } } });
  try {
    return { code, json: JSON.parse(captured) as unknown };
  } catch {
    // Not expected; the exit code still says how the check went.
    return { code, json: { ok: code === ExitCode.OK } };
  }
}
