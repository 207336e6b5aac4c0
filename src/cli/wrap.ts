/** The width help is wrapped at when the terminal's is unknown (a pipe, a file, CI's log). */
export const DEFAULT_COLUMNS = 80;

/** Narrower terminals get this width all the same: below it, every word would be a line. */
const MIN_COLUMNS = 40;

/**
 * The width to wrap help at: the terminal's (`columns` of a TTY stream), else {@link DEFAULT_COLUMNS}.
 *
 * @example
 * terminalColumns(process.stdout); // 80 when piped
 */
export function terminalColumns(stream: { isTTY?: boolean; columns?: number }): number {
  const columns = stream.isTTY === true ? stream.columns : undefined;
  if (columns === undefined || !Number.isInteger(columns) || columns <= 0) return DEFAULT_COLUMNS;
  return Math.max(MIN_COLUMNS, columns);
}

/**
 * `text` (one paragraph, its spaces collapsed) as lines of at most `width` characters, every line
 * after the first starting with `indent` spaces and the first with `first` spaces; a word longer
 * than a line is cut.
 *
 * @example
 * wrapText('sign a user in and print the session', 20, 6, 6); // ['      sign a user in', '      and print the', '      session']
 */
export function wrapText(text: string, width: number, first: number, indent: number): string[] {
  const lines: string[] = [];
  let line = ' '.repeat(first);
  let empty = true;
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const candidate = empty ? line + word : `${line} ${word}`;
    if (candidate.length <= width) {
      line = candidate;
      empty = false;
      continue;
    }
    if (!empty) {
      lines.push(line);
      line = ' '.repeat(indent);
    }
    // A word no line holds (a long URL or path) is cut at the width.
    let rest = word;
    while (line.length + rest.length > width && width - line.length > 0) {
      lines.push(line + rest.slice(0, width - line.length));
      rest = rest.slice(width - line.length);
      line = ' '.repeat(indent);
    }
    line += rest;
    empty = false;
  }
  if (!empty || lines.length === 0) lines.push(line.trimEnd());
  return lines;
}
