import { configOption, type CommandUsage } from '../../command.js';

/** What `multiauth help` shows of `types` and what its command line is parsed against; `../types.ts` runs it. */
export const typesUsage: CommandUsage = {
  name: 'types',
  summary: 'write the TypeScript declaration of the configured user names',
  arguments: '[-c FILE] [--out FILE] [--json]',
  description:
    'Writes a declaration file (default: beside the config, multiauth.d.ts for multiauth.yaml) that makes\n' +
    "authUser, signInAs(user) and authProjects({ users }) accept only the configured user names, so that\n" +
    "test.use({ authUser: 'alcie' }) fails to compile. The file must be part of the TypeScript project\n" +
    '(tsconfig.json "include"). The fixtures rewrite it when the users change (not when CI is set).',
  options: {
    config: configOption,
    out: { type: 'string', valueName: 'FILE', description: 'where to write the declaration (default: beside the config, NAME.d.ts)' },
    json: { type: 'boolean', description: 'print {"ok": true, "file", "written", "users"}' },
  },
  positionals: { min: 0, max: 0 },
};
