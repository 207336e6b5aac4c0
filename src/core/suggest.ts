/**
 * "Did you mean ...?" for misspelt keys, names and values: the closest candidate by edit distance,
 * or one that differs only in case.
 *
 * @example
 * suggest('pasword', ['username', 'password']); // 'password'
 * suggest('post', ['GET', 'POST']);             // 'POST'
 * suggest('basicauth', ['basic', 'digest']);    // 'basic'
 * suggest('zzz', ['GET', 'POST']);              // undefined
 */
export function suggest(input: string, candidates: Iterable<string>): string | undefined {
  const lower = input.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    if (candidate === input) continue;
    const other = candidate.toLowerCase();
    if (other === lower) return candidate;
    if (Math.max(lower.length, other.length) < 3) continue;
    const allowed = Math.max(1, Math.floor(Math.max(input.length, candidate.length) / 3));
    const extended = Math.min(lower.length, other.length) >= 3 &&
      (lower.startsWith(other) || other.startsWith(lower) || lower.endsWith(other) || other.endsWith(lower));
    // The distance is at least the difference in length: most candidates end here, cheaply.
    if (!extended && Math.abs(lower.length - other.length) > Math.min(allowed, bestDistance)) continue;
    if (lower.length > 200 || other.length > 200) continue;
    const distance = editDistance(lower, other);
    if ((distance <= allowed || extended) && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/**
 * The text ` (did you mean "x"?)` when a close candidate exists, else an empty string, ready to be
 * appended to a message.
 *
 * @example
 * `unknown key "usrs"${didYouMean('usrs', ['users'])}`; // 'unknown key "usrs" (did you mean "users"?)'
 */
export function didYouMean(input: string, candidates: Iterable<string>): string {
  const match = suggest(input, candidates);
  return match === undefined ? '' : ` (did you mean "${match}"?)`;
}

/** Levenshtein distance with adjacent transpositions counted as one edit (optimal string alignment). */
function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  let previous2: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, previous2[j - 2]! + 1);
      }
      current.push(value);
    }
    previous2 = previous;
    previous = current;
  }
  return previous[b.length]!;
}
