import { accessTemplateBlocks, accessStrings } from '../core/access-template.js';
import type { ConfigIssue } from '../core/errors.js';
import type { ConfigPath } from '../core/path.js';
import { didYouMean } from '../core/suggest.js';
import { SAFE_METHODS, type AuthConfig } from './schema/index.js';
import { isObject } from './schema-at.js';

/** The name `access.expect` gives the user without a session. */
export const ANONYMOUS = 'anonymous';

/** Names listed in a hint at most: an error stays readable whatever the config's size. */
const MAX_LISTED = 8;

type Report = (path: ConfigPath, message: string, hint: string, atKey?: boolean) => void;

/**
 * The access matrix's rules a schema cannot express (docs/access.md): unique request names, an
 * unsafe method only with `unsafe: true`, users and request names in `expect` that exist,
 * `{{ users.NAME.VAR }}` that some user declares, no other template. Each issue located, with a
 * did-you-mean where a name was misspelt.
 *
 * @example
 * checkAccess(config, report); // expect.edtor: unknown user "edtor" (did you mean "editor"?)
 */
export function checkAccess(config: AuthConfig, report: Report): void {
  const access = config.access;
  if (!access) return;
  const variables = declaredVariables(config);
  const requests = new Map<string, number>();
  access.requests.forEach((request, index) => {
    const path: ConfigPath = ['access', 'requests', index];
    const first = requests.get(request.name);
    if (first !== undefined) report([...path, 'name'], `request "${request.name}" is already declared at access.requests[${first}]`, 'Give each request a unique name: the table and the tests are named after it.');
    else requests.set(request.name, index);
    if (!SAFE_METHODS.has(request.method) && request.unsafe !== true) {
      report([...path, 'method'], `${request.method} may change data: the matrix sends it only when the request says "unsafe: true"`,
        'Add unsafe: true to this request (it then runs after the safe ones, against data you can afford to lose), or use GET.');
    }
    for (const { path: at, text } of accessStrings(request)) {
      for (const block of accessTemplateBlocks(text)) {
        if (block.kind === 'other') {
          report([...path, ...at], `${block.raw} cannot be expanded here: an access request reads only {{ users.NAME.VAR }}`,
            'Write {{ users.NAME.VAR }} for a variable a user declares, or ${NAME} for an environment variable.');
          continue;
        }
        const declared = variables.get(block.user);
        if (!declared) {
          report([...path, ...at], `${block.raw}: unknown user "${block.user}"${didYouMean(block.user, variables.keys())}`, listed('Declared users', [...variables.keys()]));
        } else if (!declared.has(block.variable)) {
          report([...path, ...at], `${block.raw}: user "${block.user}" declares no variable "${block.variable}"${didYouMean(block.variable, declared)}`,
            declared.size ? listed(`Variables of ${block.user}`, [...declared]) : `Declare it under the user's variables: - { name: ${block.variable}, value: ... }.`);
        }
      }
    }
  });
  for (const [user, expectation] of Object.entries(access.expect)) {
    const path: ConfigPath = ['access', 'expect', user];
    if (user !== ANONYMOUS && !variables.has(user)) {
      report(path, `unknown user "${user}"${didYouMean(user, [...variables.keys(), ANONYMOUS])}`, listed('Declared users', [...variables.keys(), ANONYMOUS]), true);
    }
    if (!isObject(expectation)) continue;
    for (const name of Object.keys(expectation)) {
      if (name === '*' || requests.has(name)) continue;
      report([...path, name], `unknown request "${name}"${didYouMean(name, requests.keys())}`, listed('Requests of access.requests', [...requests.keys(), '*']), true);
    }
  }
}

/** Every user's name and the names of the variables it declares (a list of `{name, value}` or a map). */
function declaredVariables(config: AuthConfig): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  const add = (name: string, variables: unknown) => {
    const names = Array.isArray(variables)
      ? variables.flatMap((v) => (isObject(v) && typeof v.name === 'string' ? [v.name] : []))
      : isObject(variables) ? Object.keys(variables) : [];
    found.set(name, new Set(names));
  };
  for (const preset of config.presets) for (const user of preset.users) add(user.username, (user as { variables?: unknown }).variables);
  for (const user of config.users) add(user.name, user.variables);
  return found;
}

function listed(what: string, names: string[]): string {
  if (!names.length) return `${what}: none.`;
  return `${what}: ${names.slice(0, MAX_LISTED).join(', ')}${names.length > MAX_LISTED ? ` and ${names.length - MAX_LISTED} more` : ''}.`;
}
