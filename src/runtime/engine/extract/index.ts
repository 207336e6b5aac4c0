import { MultiAuthError } from '../../../core/errors.js';
import { markupValue } from '../../../core/html-entities.js';
import type { PlanExtraction } from '../../../compile/index.js';
import type { Observation } from '../../http/observation.js';
import type { TemplateWhere } from '../../template/template.js';
import { bodyLookup, resolvedBodyValue } from './body.js';
import { cookieLookup } from './cookie.js';
import { headerLookup } from './header.js';
import { queryLookup } from './query.js';
import { storageLookup } from './storage.js';
import { compileExtractionRegex, matchExtractionRegex } from './regex.js';
import type { Lookup } from './types.js';
import { mailLookup } from './mail.js';

export { compileExtractionRegex, matchExtractionRegex } from './regex.js';

/**
 * Runs one extraction on what a step observed (DESIGN.md "Extractions"): the location reader
 * ({@link headerLookup}, {@link cookieLookup}, {@link bodyLookup}, {@link queryLookup}) lists the
 * candidate values best first; without `regex` the first candidate is the value, with one the first
 * candidate it matches, narrowed to its group `value`, else its first group, else the whole match.
 * An empty string is a value.
 *
 * @returns the value; `undefined` only when nothing was found and `extraction.optional` is true.
 * @throws MultiAuthError `EXTRACTION_NOT_FOUND` naming the extraction (name, location, key, regex),
 *   the user, procedure and step, and the names (never the values) of what the exchange did hold.
 * @throws MultiAuthError `CONFIG_INVALID` when `regex` is not a valid regular expression.
 * @example
 * extract(observation, { name: 'token', location: 'header', key: 'X-Token', origin: [] }, { user: 'alice' }); // 'abc'
 */
export function extract(observation: Observation, extraction: PlanExtraction, where: TemplateWhere): string | undefined {
  if (observation.mail === undefined && extraction.location === 'body' && extraction.regex === undefined && extraction.match === undefined) {
    const value = resolvedBodyValue(observation, extraction.key);
    if (value !== undefined) return value;
  }
  const lookup = lookupFor(observation, extraction);
  const regex =
    extraction.regex === undefined ? undefined : compileExtractionRegex(extraction.regex, [...extraction.origin, 'regex']);
  for (const candidate of lookup.candidates) {
    if (!regex) return candidate;
    const value = matchExtractionRegex(regex, candidate);
    // A hidden input's value is written with `&amp;`; the browser sends it decoded.
    if (value !== undefined) return extraction.location === 'body' && !observation.mail ? markupValue(candidate, value) : value;
  }
  if (extraction.optional) return undefined;
  throw notFound(extraction, lookup, where, observation.mail !== undefined);
}

function lookupFor(observation: Observation, extraction: PlanExtraction): Lookup {
  // A mail is what an email step observed: its extractions read the mail and nothing else.
  if (observation.mail) return mailLookup(observation.mail, extraction);
  switch (extraction.location) {
    case 'header':
      return headerLookup(observation, extraction.key);
    case 'cookie':
      return cookieLookup(observation, extraction.key);
    case 'body':
      return bodyLookup(observation, extraction);
    case 'query':
      return queryLookup(observation, extraction.key);
    case 'browser_local_storage':
      return storageLookup(observation, 'localStorage', extraction.key, extraction.storageOrigin);
    case 'browser_session_storage':
      return storageLookup(observation, 'sessionStorage', extraction.key, extraction.storageOrigin);
    case 'link':
      return { candidates: [], seen: () => ['no mail: location link reads a link of a mail (tech: email)'] };
  }
}

const PLACE: Record<PlanExtraction['location'], string> = {
  header: 'header',
  cookie: 'cookie',
  body: 'body value',
  query: 'query parameter',
  browser_local_storage: 'localStorage item',
  browser_session_storage: 'sessionStorage item',
  link: 'link',
};

function notFound(extraction: PlanExtraction, lookup: Lookup, where: TemplateWhere, inMail: boolean): MultiAuthError {
  const what =
    extraction.match === 'first-key-ending-token'
      ? `a string whose key ends with "token" under body "${extraction.key}"`
      : inMail
        ? `${extraction.key === '' ? (extraction.location === 'body' ? 'text' : 'link') : `${PLACE[extraction.location]} "${extraction.key}"`} in the mail`
        : `${PLACE[extraction.location]} "${extraction.key}"`;
  const candidates = [...lookup.candidates];
  const reason =
    extraction.regex !== undefined && candidates.length > 0
      ? `${candidates.length === 1 ? 'the value found for' : `none of the ${candidates.length} values found for`} ${what} ${candidates.length === 1 ? 'does not match' : 'matches'} the regex /${extraction.regex}/`
      : lookup.reason
        ? `no ${what}: ${lookup.reason()}`
        : `no ${what}${inMail ? '' : ' in the exchange'}`;
  return new MultiAuthError('EXTRACTION_NOT_FOUND', `extraction "${extraction.name}" found nothing: ${reason}`, {
    path: extraction.origin,
    context: { user: where.user, procedure: where.procedure, step: where.step },
    details: [
      `extraction: name ${extraction.name}, location ${extraction.location}, key ${extraction.key}` +
        (extraction.regex !== undefined ? `, regex /${extraction.regex}/` : ''),
      ...lookup.seen().map((line) => `seen: ${line}`),
    ],
    hint: inMail
      ? 'Compare the extraction\'s location, key and regex with a mail the application sends (nothing of this one is shown: it is a secret); a link\'s key is a glob of its path (/verify/**) or whole URL.'
      : 'Compare the extraction\'s location, key and regex with what the server sends (the names seen are listed above); ' +
        'a body key may be a dot path such as data.login.token.',
  });
}
