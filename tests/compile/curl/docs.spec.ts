import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { curlOptionsMarkdown, CURL_OPTIONS } from '../../../src/compile/curl/index.js';

const DOC = fileURLToPath(new URL('../../../docs/curl.md', import.meta.url));

test('docs/curl.md shows the option table as the code has it', () => {
  const text = readFileSync(DOC, 'utf8');
  const section = /<!-- options:start -->\n([\s\S]*?)\n<!-- options:end -->/.exec(text)?.[1];
  expect(section, 'run: node --import tsx -e "import(\'./src/compile/curl/index.ts\').then(m => console.log(m.curlOptionsMarkdown()))"')
    .toBe(curlOptionsMarkdown());
});

test('the option table has one row per name and the options the spec lists', () => {
  const names = CURL_OPTIONS.flatMap((o) => [o.long, o.short, ...(o.aliases ?? [])].filter(Boolean));
  expect(new Set(names).size).toBe(names.length);
  const supported = new Set(CURL_OPTIONS.filter((o) => o.kind === 'request').flatMap((o) => [o.long, o.short]));
  for (const name of ['-X', '-H', '-b', '-d', '--data-ascii', '--data-binary', '--data-raw', '-u', '-A', '-x', '-k', '-L', '--max-redirs',
    '--url', '-G', '--json', '--data-urlencode', '--compressed', '--oauth2-bearer', '-e', '-m', '--connect-timeout']) {
    expect(supported.has(name), name).toBe(true);
  }
});
