import { z } from 'zod';
import { editorSchema } from './editor-schema.js';
import { AuthConfig } from './schema/index.js';

/** Where the published schema can be fetched: the package's own copy of `docs/schema.json`. */
export const SCHEMA_ID = 'https://unpkg.com/playwright-multiauth/docs/schema.json';

/**
 * The JSON Schema (draft 2020-12) of `multiauth.yaml`, generated from the zod schema that validates
 * it, in its input form (what a user writes: keys with defaults are optional), in the shape editors
 * read best ({@link editorSchema}): every key described, presets and operations discriminated on
 * `type` and `tech`, `${NAME}` accepted where the loader accepts it. `docs/schema.json` is this,
 * written by `scripts/gen-schema.ts`; `multiauth schema` prints it. Editors use it with
 * `# yaml-language-server: $schema=./node_modules/playwright-multiauth/docs/schema.json`.
 *
 * @see https://json-schema.org/draft/2020-12/json-schema-core
 * @example
 * writeFileSync('docs/schema.json', `${JSON.stringify(formatJsonSchema(), null, 2)}\n`);
 */
export function formatJsonSchema(): Record<string, unknown> {
  const { $schema, ...schema } = editorSchema(z.toJSONSchema(AuthConfig, {
    io: 'input',
    target: 'draft-2020-12',
    unrepresentable: 'any',
  }) as Record<string, unknown>);
  return {
    $schema,
    $id: SCHEMA_ID,
    title: 'playwright-multiauth config (multiauth.yaml)',
    description:
      'Test users and how each signs in: presets (basic, headers, http, digest, graphql, oauth_client_credentials, ' +
      'oauth_userpass, pool_userpass, oauth_authz_code_browser, webdriver, curl, curl_sequence), procedures of ' +
      'http/digest/browser operations, and users. See docs/format.md of playwright-multiauth.',
    ...schema,
  };
}
