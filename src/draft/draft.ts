import { MultiAuthError } from '../core/errors.js';
import { analyse, describeExchange } from './chain.js';
import { buildConfig } from './build-config.js';
import { toExchanges } from './exchanges.js';
import type { HarEntry } from './har-schema.js';
import { assertNoSecrets, envExample, envFile, renderDraft, secretsRedactor } from './render.js';
import { secretsAsReferences } from './secret-refs.js';
import { findSignIn } from './sign-in.js';

/** What `multiauth draft` made of a recording. */
export interface Draft {
  /** `http`, `oauth_userpass`, `oauth_client_credentials`, `graphql`, `basic` or `procedure`. */
  form: string;
  /** The user's name in the config. */
  user: string;
  /** The config text (YAML). */
  text: string;
  /** `.env.example`: the `${NAME}`s, without values. */
  envExample: string;
  /** `.env` with the recorded values: written only when asked (`--write-env`). */
  envFile: string;
  /** The `${NAME}`s the draft reads. */
  envNames: string[];
  /** One line per decision, values masked. */
  evidence: string[];
  /** What the drafter could not decide, with the candidates (also comments in `text`). */
  todos: string[];
}

/**
 * Drafts a config from a HAR's entries (see {@link readHarFile}): finds the sign-in, follows what
 * it needed and what the signed-in requests carried back to where each value first appeared,
 * and writes the most compact form of the format that signs the user in. No recorded secret or
 * token is in `text` or `envExample` (a guard checks every one before returning).
 *
 * `webdriver: true` drafts a browser sign-in (a `webdriver` preset typing into the recorded login
 * form); it is also drafted when the form post sent values the page's script computed.
 *
 * @throws MultiAuthError `DRAFT_NO_SIGN_IN` when no exchange signs in, or only refused ones do, or
 *   `webdriver` is asked for a recording without a form post and the page that held its form.
 * @example
 * const draft = draftFromHar(readHarFile('login.har', 'login.har'), { source: 'login.har' });
 * writeFileSync('multiauth.yaml', draft.text);
 */
export function draftFromHar(entries: readonly HarEntry[], options: { source: string; user?: string; webdriver?: boolean }): Draft {
  const exchanges = toExchanges(entries);
  const { signIn, refused } = findSignIn(exchanges);
  if (!signIn) {
    const tried = refused.length
      ? ` (the server refused the attempt at ${describeExchange(refused.at(-1)!.exchange)} with HTTP ${refused.at(-1)!.exchange.status})`
      : '';
    throw new MultiAuthError('DRAFT_NO_SIGN_IN', `${options.source}: no sign-in found in ${exchanges.length} recorded requests${tried}`, {
      hint:
        'Record a successful sign-in (a request with a password field, HTTP Basic, an OAuth token request or a GraphQL login mutation) ' +
        'followed by one signed-in request; docs/draft.md says what the drafter recognises.',
    });
  }
  if (!exchanges.some((e) => e.index > signIn.exchange.index)) {
    throw new MultiAuthError('DRAFT_NO_SIGN_IN', `${options.source}: nothing was recorded after the sign-in at ${describeExchange(signIn.exchange)}`, {
      hint: 'Keep recording until the application has made one signed-in request (open a page or call an API that needs the session).',
    });
  }
  const analysis = analyse(exchanges, signIn);
  const built = buildConfig(analysis, { ...(options.user !== undefined && { user: options.user }), ...(options.webdriver && { webdriver: true }) });
  const drafted = secretsAsReferences(built);
  const text = renderDraft(drafted, options.source);
  const example = envExample(drafted);
  assertNoSecrets(example, drafted, '.env.example');
  const redactor = secretsRedactor(drafted);
  const evidence = drafted.evidence.map((line) => redactor.redact(line));
  const todos = drafted.todos.map((line) => redactor.redact(line));
  return {
    form: drafted.form,
    user: drafted.user,
    text,
    envExample: example,
    envFile: envFile(drafted),
    envNames: [...drafted.env.keys()],
    evidence,
    todos,
  };
}
