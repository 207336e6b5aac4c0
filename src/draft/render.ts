import { Document, isScalar, Scalar, visit } from 'yaml';
import { MultiAuthError } from '../core/errors.js';
import { Redactor } from '../core/redactor.js';
import type { DraftedConfig } from './build-config.js';

/**
 * The draft as `multiauth.yaml` text: a header that says where it came from and what to review,
 * each `TODO` as a comment, every `${NAME}` double-quoted (it stays a string whatever its value).
 *
 * @throws MultiAuthError `INTERNAL` when a value of the recording that must not be written (a
 *   password, a token, a cookie) would appear in it: the guard behind every rule of the drafter.
 * @example
 * const text = renderDraft(drafted, 'login.har');
 */
export function renderDraft(drafted: DraftedConfig, source: string): string {
  const doc = new Document(drafted.config);
  const header = [
    ` Drafted by \`multiauth draft --har ${source}\` (docs/draft.md). Review it, then run`,
    ` \`multiauth check -c <this file>\` with the secrets in the environment or in .env (see .env.example).`,
  ];
  if (drafted.todos.length) header.push('', ...drafted.todos.map((todo) => ` TODO: ${todo}`));
  doc.commentBefore = header.join('\n');
  // An unquoted `${NAME}` takes the YAML type of its value (a password of digits would be a number).
  visit(doc, {
    Scalar(_key, node) {
      if (isScalar(node) && typeof node.value === 'string' && node.value.includes('${')) node.type = Scalar.QUOTE_DOUBLE;
    },
  });
  const text = doc.toString({ lineWidth: 0 });
  guard(text, drafted.secrets, 'the draft');
  return text;
}

/**
 * `.env.example`: the names of the draft's `${NAME}`s, without values.
 *
 * @example
 * envExample(drafted); // 'ALICE_PASSWORD=\n'
 */
export function envExample(drafted: DraftedConfig): string {
  const lines = ['# The secrets multiauth.yaml reads: copy to .env (never commit it) and fill in, or set them in the environment.'];
  for (const name of drafted.env.keys()) lines.push(`${name}=`);
  return `${lines.join('\n')}\n`;
}

/**
 * `.env` with the values the recording held, quoted for dotenv: only for `--write-env`.
 *
 * @example
 * envFile(drafted); // "ALICE_PASSWORD='alice-password'\n"
 */
export function envFile(drafted: DraftedConfig): string {
  const lines = ['# Written by multiauth draft --write-env from the recording: secrets, never commit this file.'];
  for (const [name, value] of drafted.env) {
    lines.push(`${name}=${dotenvQuoted(value)}`);
  }
  return `${lines.join('\n')}\n`;
}

/** dotenv reads '...' and `...` as written; "..." only where neither fits (it expands `\n` there). */
function dotenvQuoted(value: string): string {
  if (!/['\n\r]/.test(value)) return `'${value}'`;
  if (!/[`\n\r]/.test(value)) return `\`${value}\``;
  return JSON.stringify(value);
}

/**
 * A redactor that knows every secret value of the recording, for the evidence and errors the
 * drafter prints.
 *
 * @example
 * secretsRedactor(drafted).redact(line);
 */
export function secretsRedactor(drafted: DraftedConfig): Redactor {
  return new Redactor().add(...drafted.secrets).keep(drafted.user);
}

function guard(text: string, secrets: ReadonlySet<string>, what: string): void {
  for (const secret of secrets) {
    if (secret.length >= 6 && text.includes(secret)) {
      throw new MultiAuthError('INTERNAL', `a recorded secret would have been written into ${what}; nothing was written`, {
        hint: 'Report this HAR shape (without its values) as a bug of multiauth draft.',
      });
    }
  }
}

/**
 * Throws when any recorded secret appears in `text` (stdout, `.env.example`, JSON output).
 *
 * @throws MultiAuthError `INTERNAL`.
 * @example
 * assertNoSecrets(envExample(drafted), drafted, '.env.example');
 */
export function assertNoSecrets(text: string, drafted: DraftedConfig, what: string): void {
  guard(text, drafted.secrets, what);
}
