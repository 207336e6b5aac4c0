import type { Exchange } from '../../draft/index.js';
import type { OwnerCredentials, ReplayAnswer, ReplaySelection, ReplayTarget } from '../../runtime/index.js';

/**
 * Headers of a recording not sent again: the connection's (undici refuses some), `Accept-Encoding`
 * (a compressed body the comparison cannot read), and the browser cache's conditions and ranges
 * (every replay would get an empty 304 or a part, all alike: false findings).
 */
const NOT_REPLAYED_HEADERS: ReadonlySet<string> = new Set([
  'host', 'connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'expect', 'content-length', 'accept-encoding',
  'if-none-match', 'if-modified-since', 'if-match', 'if-unmodified-since', 'if-range', 'range',
]);

/** Response media types of a page's assets (an image, a script, a style, a font, media): never replayed. */
function isAssetType(mime: string): boolean {
  return /^(image|font|audio|video)\//.test(mime) || mime === 'text/css' || mime.includes('javascript') || mime === 'application/wasm';
}

/** What the recording gives the replay: the requests taken, and how many carried no credentials. */
export interface HarReplayRequests {
  targets: ReplayTarget[];
  /** Requests sent without any credential of the owner's (a login page, a public file): not replayed. */
  anonymous: number;
}

/**
 * The requests of a recorded session to replay as other users (`multiauth replay`): each exchange
 * with the owner's credentials taken out (`withoutCredentials`), those that carried none left out,
 * the rest offered to `selection` (safe methods unless asked, the scope's origins, no assets, one
 * per method and URL pattern, bounded), each with the answer the recording holds as the owner's first.
 *
 * @example
 * const { targets } = harReplayRequests(toExchanges(readHarFile(path, shown)), { isSecret, headerNames, queryNames }, selection, withoutCredentials);
 */
export function harReplayRequests(
  exchanges: readonly Exchange[],
  owner: OwnerCredentials,
  selection: ReplaySelection<ReplayTarget & { resourceType: string }>,
  withoutCredentials: (request: { url: string; headers: Array<[string, string]> }, owner: OwnerCredentials) => { url: string; headers: Array<[string, string]>; carried: boolean },
): HarReplayRequests {
  let anonymous = 0;
  for (const exchange of exchanges) {
    const recorded = exchange.requestHeaders.map(({ name, value }): [string, string] => [name, value]);
    const cleaned = withoutCredentials({ url: exchange.url.href, headers: recorded }, owner);
    if (!cleaned.carried) {
      anonymous++;
      continue;
    }
    const responseMime = exchange.responseBody?.mime ?? '';
    const location = exchange.responseHeaders.find((h) => h.name.toLowerCase() === 'location')?.value;
    const contentType = exchange.responseHeaders.find((h) => h.name.toLowerCase() === 'content-type')?.value;
    const first: ReplayAnswer = {
      url: cleaned.url, status: exchange.status, body: exchange.responseBody?.text ?? '',
      ...(location === undefined ? {} : { location }),
      ...(contentType === undefined ? {} : { contentType }),
    };
    selection.offer({
      method: exchange.method,
      url: cleaned.url,
      pattern: '',
      headers: cleaned.headers.filter(([name]) => !NOT_REPLAYED_HEADERS.has(name.toLowerCase())),
      ...(exchange.requestBody === undefined ? {} : { body: exchange.requestBody.text }),
      // A recorded answer with no status (Chrome writes 0 for a request that failed) is no answer to compare with.
      ...(exchange.status > 0 ? { first } : {}),
      resourceType: isAssetType(responseMime) ? 'asset' : 'fetch',
    });
  }
  return { targets: selection.taken().map(({ resourceType: _asset, ...target }) => target), anonymous };
}
