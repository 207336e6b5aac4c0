import type { CommandUsage } from '../../command.js';

/** What `multiauth help` shows of `draft` and what its command line is parsed against; `../draft.ts` runs it. */
export const draftUsage: CommandUsage = {
  name: 'draft',
  summary: 'draft a config from a recorded sign-in (a HAR file)',
  arguments: '--har FILE [--user NAME] [--out FILE] [--force] [--write-env] [--webdriver] [--check] [--json]',
  description:
    'Reads a HAR of one sign-in followed by at least one signed-in request (Playwright\n' +
    '`codegen --save-har`, the browser\'s "Save all as HAR") and writes a config that signs that\n' +
    'user in (default multiauth.yaml; an existing file is kept unless --force), with\n' +
    '.env.example naming the secrets it reads as ${NAME}. Prints the evidence of each decision\n' +
    '(values masked) and what it could not decide (TODO, also as comments in the file). No\n' +
    'recorded secret is written anywhere unless --write-env, which writes them into .env beside\n' +
    'the config (mode 0600; an existing .env is left as it is). --check signs the user in with\n' +
    'the draft right away (secrets from the environment or .env). --webdriver drafts a browser\n' +
    'sign-in that types into the recorded login form. Exit 0 drafted (and signed\n' +
    'in), 1 the check failed, 2 not a HAR, no sign-in found, or the output exists (docs/draft.md).',
  options: {
    har: { type: 'string', valueName: 'FILE', description: 'the recording (HAR 1.2 JSON)' },
    user: { type: 'string', valueName: 'NAME', description: 'the user\'s name in the config (default: the recorded login)' },
    out: { type: 'string', valueName: 'FILE', description: 'where to write the config (default multiauth.yaml)' },
    force: { type: 'boolean', description: 'replace an existing config file at --out' },
    'write-env': { type: 'boolean', description: 'also write the recorded secrets into .env beside the config (0600, never over an existing one)' },
    webdriver: { type: 'boolean', description: 'draft a browser sign-in (a webdriver preset typing into the recorded login form)' },
    check: { type: 'boolean', description: 'sign the user in with the draft right away, as multiauth check does' },
    json: { type: 'boolean', description: 'print {"ok", "file", "form", "user", "env", "evidence", "todos", "check"?} on stdout' },
  },
  positionals: { min: 0, max: 0 },
};
