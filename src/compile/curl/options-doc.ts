import { CURL_OPTIONS, type CurlOptionKind } from './options.js';

const KIND_TEXT: Record<CurlOptionKind, string> = {
  request: 'supported',
  ignored: 'accepted, ignored',
  unsupported: 'refused (unsupported)',
  forbidden: 'refused (forbidden)',
};

/**
 * The Markdown table of {@link CURL_OPTIONS} that `docs/curl.md` shows (a test keeps the two
 * equal): one row per option, supported ones first, in table order.
 *
 * @example
 * curlOptionsMarkdown().split('\n')[0]; // '| Option | Status | What it does, or why it is refused |'
 */
export function curlOptionsMarkdown(): string {
  const lines = ['| Option | Status | What it does, or why it is refused |', '|---|---|---|'];
  for (const option of CURL_OPTIONS) {
    const names = [option.short, option.long, ...(option.aliases ?? [])].filter(Boolean).map((n) => `\`${n}\``);
    const value = option.arity === 1 ? ' *value*' : '';
    lines.push(`| ${names.join(', ')}${value} | ${KIND_TEXT[option.kind]} | ${option.effect.replace(/\|/g, '\\|')} |`);
  }
  return lines.join('\n');
}
