/**
 * The sandboxed curl simulator: curl command -> request template, never a shell (DESIGN.md "The
 * curl simulator", docs/curl.md).
 */
export { parseCurl, MAX_CURL_COMMAND_LENGTH } from './parse.js';
export { checkCurlUrl } from './url.js';
export { CURL_OPTIONS, type CurlOptionKind, type CurlOptionSpec } from './options.js';
export { curlOptionsMarkdown } from './options-doc.js';
