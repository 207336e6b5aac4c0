/**
 * Terminal escape sequences and other control characters, for text that came from elsewhere
 * (Playwright colours its call logs when it thinks a terminal reads them; a page's title can hold
 * anything). The alternatives' classes do not overlap and an OSC stops at the next ESC, so
 * matching stays linear in the text's length.
 */
const ESCAPES = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[ -~]?|[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * `text` without terminal escape sequences (colours, cursor moves, titles, links) and control
 * characters other than newline and tab: what a message quotes from a browser or a server cannot
 * rewrite the user's terminal, and masking sees the characters the user would see.
 *
 * @example
 * withoutEscapes('\u001b[2m- navigating to "http://a.test/"\u001b[22m'); // '- navigating to "http://a.test/"'
 */
export function withoutEscapes(text: string): string {
  return text.replace(ESCAPES, '');
}
