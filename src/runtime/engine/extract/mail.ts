import type { PlanExtraction } from '../../../compile/index.js';
import type { ObservedMail } from '../../http/observation.js';
import { globMatches } from '../../session/signed-out.js';
import { listNames, type Lookup } from './types.js';

/** The longest link or glob part matched (globs are at most 2048 characters). */
const MAX_MATCH_LENGTH = 4096;

/**
 * Where a `tech: email` step's extraction reads the mail: `body` (its text, whole), `header` (`key`,
 * any case, each value a candidate), `link` (the links `key` matches, HTML part first; no key: every
 * link), `query` (parameter `key` of each link, in the links' order). What `seen` says counts and
 * names headers; it never quotes the mail (its links and text are secrets).
 *
 * @example
 * [...mailLookup(mail, { location: 'link', key: '/verify/**' }).candidates]; // ['https://app.test/verify/abc']
 */
export function mailLookup(mail: ObservedMail, extraction: Pick<PlanExtraction, 'location' | 'key'>): Lookup {
  const { key } = extraction;
  switch (extraction.location) {
    case 'body':
      return { candidates: [mail.body], seen: () => [`the mail's text: ${mail.body.length} characters`] };
    case 'header': {
      const name = key.toLowerCase();
      return {
        candidates: mail.headers.filter(([n]) => n.toLowerCase() === name).map(([, value]) => value),
        seen: () => [`the mail's headers: ${listNames(mail.headers.map(([n]) => n))}`],
      };
    }
    case 'link':
      return {
        candidates: key === '' ? mail.links : mail.links.filter((link) => linkMatches(key, link)),
        seen: () => [`${mail.links.length} link(s) in the mail`],
      };
    case 'query': {
      const candidates: string[] = [];
      for (const link of mail.links) {
        const value = parsed(link)?.searchParams.get(key);
        if (value !== null && value !== undefined) candidates.push(value);
      }
      return { candidates, seen: () => [`${mail.links.length} link(s) in the mail, none with a query parameter of that name`] };
    }
    default:
      return { candidates: [], seen: () => [`a mail has no ${extraction.location}`] };
  }
}

/**
 * Whether a link matches a `link` extraction's glob, in the syntax of `reauth.on_redirect`: one
 * starting with `/` is matched against the link's path, any other against its origin and path.
 * The link's query is ignored unless the glob has one (a `?` followed by `name=`): then the part
 * after it is matched against the link's query too.
 *
 * @example
 * linkMatches('/auth/verify', 'https://app.test/auth/verify?token=x'); // true
 * linkMatches('/auth/verify?token=*', 'https://app.test/auth/verify?next=/'); // false
 */
export function linkMatches(glob: string, link: string): boolean {
  const url = parsed(link);
  if (!url) return false;
  const split = glob.search(/\?[^/?]*=/);
  const pathGlob = split === -1 ? glob : glob.slice(0, split);
  const target = pathGlob.startsWith('/') ? url.pathname : url.origin + url.pathname;
  if (!globMatches(pathGlob.slice(0, MAX_MATCH_LENGTH), target.slice(0, MAX_MATCH_LENGTH))) return false;
  return split === -1 || globMatches(glob.slice(split + 1, split + 1 + MAX_MATCH_LENGTH), url.search.slice(1, 1 + MAX_MATCH_LENGTH));
}

function parsed(link: string): URL | undefined {
  try {
    return new URL(link);
  } catch {
    return undefined;
  }
}
