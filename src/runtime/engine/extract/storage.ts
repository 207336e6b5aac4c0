import type { Observation } from '../../http/observation.js';
import { listNames, type Lookup } from './types.js';

/** Which of an origin's storages a `browser_*_storage` extraction reads. */
export type StorageArea = 'localStorage' | 'sessionStorage';

/**
 * Item `key` of the localStorage or sessionStorage a browser step left (of `origin` when given,
 * else of any origin, in the order the browser listed them). A step that ran no browser has no
 * storage: the reason says so.
 *
 * @example
 * storageLookup(observation, 'sessionStorage', 'msal.idtoken', 'https://app.test').candidates; // ['eyJ...']
 */
export function storageLookup(observation: Observation, area: StorageArea, key: string, origin: string | undefined): Lookup {
  const origins = (observation.storage ?? []).filter((o) => origin === undefined || o.origin === origin);
  const items = origins.flatMap((o) => o[area] ?? []);
  return {
    candidates: items.filter((item) => item.name === key).map((item) => item.value),
    seen: () => [
      `${area} of ${origin ?? 'every origin'}: ${listNames(items.map((item) => item.name))}`,
      `origins with storage: ${listNames((observation.storage ?? []).map((o) => o.origin))}`,
    ],
    ...(observation.storage === undefined
      ? { reason: () => 'only a browser step leaves browser storage to read; this step sent HTTP requests' }
      : {}),
  };
}
