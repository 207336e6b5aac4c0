import { configOption, type CommandUsage, type OptionSpec } from '../../command.js';
import { MAX_PARALLEL } from '../bounded.js';
import { DEFAULT_MATRIX_PARALLEL } from '../../../core/matrix-parallel.js';

/** The options of `multiauth matrix --from-openapi`, one row each. */
export const draftOptions: Record<string, OptionSpec> = {
  'from-openapi': { type: 'string', valueName: 'FILE', description: 'print access.requests drafted from an OpenAPI 3 document (runs nothing)' },
  unsafe: { type: 'boolean', description: 'with --from-openapi: draft POST, PUT, PATCH and DELETE operations too, marked unsafe' },
  owner: { type: 'string', valueName: 'NAME', description: 'with --from-openapi: the user named in placeholders of path parameters without an example (default OWNER)' },
};

/** What `multiauth help` shows of `matrix` and what its command line is parsed against; `../matrix.ts` runs it. */
export const matrixUsage: CommandUsage = {
  name: 'matrix',
  summary: 'send every access request as every user and compare with access.expect',
  arguments: '[-c FILE] [--json] [--parallel N] [--browser-path P] [--update] | --from-openapi FILE [--unsafe] [--owner NAME] | --from-replay FILE [--update]',
  description:
    'Runs the access matrix of the config (access: requests, expect, deny; docs/access.md):\n' +
    'signs every user of access.expect in once (its session check included), sends every\n' +
    'request as every user (anonymous: without a session), safe requests first, then the\n' +
    'unsafe ones in declared order, and prints a table: a row per request, a column per user,\n' +
    'each cell allow, deny or error with its status, unexpected cells marked. Redirects are not\n' +
    'followed and a deny never signs anyone in again. Exit 0 all as expected, 1 any unexpected\n' +
    'cell or failed sign-in, 2 invalid config.\n' +
    '--update runs every configured user and anonymous and writes what it observed into\n' +
    'access.expect (comments and order kept; exit 0 once written). --from-openapi FILE prints\n' +
    'access.requests drafted from an OpenAPI 3 document (docs/access-tools.md). --from-replay FILE\n' +
    'prints an access block from an access replay\'s JSON, each finding written deny with a\n' +
    '"# review:" comment; with --update it is added to the config\'s access (docs/access.md).',
  options: {
    config: configOption,
    json: { type: 'boolean', description: 'print {"ok", "users", "requests", "cells": {user: {request: {outcome, status, expected, unexpected, why}}}, "problems"}' },
    parallel: { type: 'string', valueName: 'N', description: `requests at once (default ${DEFAULT_MATRIX_PARALLEL}, at most ${MAX_PARALLEL})` },
    'browser-path': { type: 'string', description: 'browser for browser sign-ins (default MULTIAUTH_BROWSER_PATH, then Playwright\'s)' },
    update: { type: 'boolean', description: 'run every user and anonymous, then write what was observed into access.expect of the config file' },
    ...draftOptions,
    'from-replay': { type: 'string', valueName: 'FILE', description: 'print an access block from an access replay\'s JSON (multiauth-access-replay.json); with --update, add it to the config' },
  },
  positionals: { min: 0, max: 0 },
};
