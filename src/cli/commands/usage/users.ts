import { configOption, type CommandUsage } from '../../command.js';

/** What `multiauth help` shows of `users` and what its command line is parsed against; `../users.ts` runs it. */
export const usersUsage: CommandUsage = {
  name: 'users',
  summary: 'list the configured users, one name a line',
  arguments: '[-c FILE] [--json]',
  options: { config: configOption, json: { type: 'boolean', description: 'print {"ok": true, "users": [names]}' } },
  positionals: { min: 0, max: 0 },
};
