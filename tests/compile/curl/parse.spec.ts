import { test, expect } from '@playwright/test';
import { MultiAuthError } from '../../../src/core/errors.js';
import { checkCurlUrl, CURL_OPTIONS, parseCurl } from '../../../src/compile/curl/index.js';

function refusal(command: string): MultiAuthError {
  try {
    parseCurl(command);
  } catch (error) {
    expect(error).toBeInstanceOf(MultiAuthError);
    return error as MultiAuthError;
  }
  throw new Error(`accepted: ${command}`);
}

test.describe('option syntax', () => {
  test('--opt=value, --no-flag and short groups', () => {
    const request = parseCurl('curl --request=put --max-time=2.2 -kL --no-location https://x.test/a --header=X-A:1');
    expect(request).toMatchObject({ method: 'PUT', timeout: 3, insecure: true, followRedirects: 0 });
    expect(request.headers).toEqual([{ name: 'X-A', values: ['1'] }]);
  });

  test('a value is taken whatever it looks like, as curl takes it', () => {
    expect(parseCurl('curl https://x.test -d -L').body).toBe('-L');
    expect(parseCurl('curl https://x.test -d --').body).toBe('--');
  });

  test('without a leading curl, and curl.exe', () => {
    expect(parseCurl('https://x.test/a -d a=1').method).toBe('POST');
    expect(parseCurl('curl.exe https://x.test/a').url).toBe('https://x.test/a');
  });

  test('an unknown option names itself and lists the supported ones', () => {
    const error = refusal('curl --retry 3 https://x.test');
    expect(error.code).toBe('CURL_UNSUPPORTED_OPTION');
    expect(error.message).toContain('`--retry`');
    for (const option of CURL_OPTIONS.filter((o) => o.kind === 'request')) expect(error.hint).toContain(option.long);
    expect(error.hint).not.toContain('--output');
    expect(refusal('curl -sZ https://x.test').message).toContain('`-Z`');
    expect(refusal('curl -sq https://x.test').message).toContain('`-q`');
  });

  test('a flag given a value, a missing value, unknown --no-', () => {
    expect(refusal('curl --insecure=yes https://x.test').code).toBe('CURL_PARSE');
    expect(refusal('curl https://x.test -H').message).toContain('`-H` needs a value');
    expect(refusal('curl --no-header x https://x.test').code).toBe('CURL_UNSUPPORTED_OPTION');
  });

  test('bash details: # inside a word, comments, CRLF continuations, tabs, trailing backslash', () => {
    expect(parseCurl('curl http://x.test/#/login').url).toBe('http://x.test/#/login');
    expect(parseCurl('curl http://x.test/ # -o out').url).toBe('http://x.test/');
    expect(parseCurl('curl "http://x.test/#a" -d "b#c"').body).toBe('b#c');
    expect(parseCurl('curl http://x.test/ \\\r\n\t-d a=1 \\').body).toBe('a=1');
    expect(parseCurl('\n\n  curl http://x.test/\n\n').url).toBe('http://x.test/');
    expect(parseCurl('curl http://x.test/ -d "a\\\nb"').body).toBe('ab');
    expect(parseCurl("curl http://x.test/ -d $'\\x41\\'\\\\'").body).toBe("A'\\");
  });

  test('unterminated quotes', () => {
    expect(refusal("curl 'https://x.test").message).toContain('single quote');
    expect(refusal('curl "https://x.test').message).toContain('double quote');
    expect(refusal("curl https://x.test --data-raw $'abc").message).toContain('ANSI-C');
    expect(refusal('curl ^"https://x.test^" ^\n -H "a: b').code).toBe('CURL_PARSE');
  });
});

test.describe('URLs', () => {
  test('exactly one URL', () => {
    expect(refusal('curl -H "a: b"').message).toContain('no URL');
    const two = refusal('curl https://a.test https://b.test/?token=secret');
    expect(two.message).toContain('2 URLs');
    expect(two.render()).not.toContain('token=secret');
    expect(refusal('curl https://a.test -d a={{ user }}').message).toContain('3 URLs');
  });

  test('schemes: http(s) literal, guessed, templated', () => {
    expect(parseCurl('curl HTTPS://X.test/').url).toBe('HTTPS://X.test/');
    expect(parseCurl('curl localhost:3000/login').url).toBe('http://localhost:3000/login');
    expect(parseCurl('curl [::1]:8080/x').url).toBe('http://[::1]:8080/x');
    expect(parseCurl('curl x.test:{{port}}/a').url).toBe('http://x.test:{{port}}/a');
    expect(parseCurl('curl {{scheme}}://x.test/a').url).toBe('{{scheme}}://x.test/a');
    expect(parseCurl('curl "{{ base }}/login"').url).toBe('{{ base }}/login');
    expect(refusal('curl ldap://x.test').message).toContain('`ldap://`');
    expect(refusal('curl scp://x.test/f').code).toBe('CURL_FORBIDDEN');
    expect(refusal("curl 'javascript:alert(1)'").message).toContain('`javascript:`');
  });

  test('user:password@ becomes Basic, -u wins over it, templates wait for the runtime', () => {
    expect(parseCurl('curl https://a:b@x.test/ -u c:d').headers).toEqual([{ name: 'Authorization', values: ['Basic Yzpk'] }]);
    const templated = parseCurl('curl "https://{{user}}:{{pw}}@x.test/"');
    expect(templated.url).toBe('https://x.test/');
    expect(templated.basicAuth).toEqual({ username: '{{user}}', password: '{{pw}}' });
    expect(templated.headers).toEqual([]);
    const overridden = parseCurl('curl -u "{{user}}:{{pw}}" -H "Authorization: Token t" https://x.test/');
    expect(overridden.basicAuth).toBeUndefined();
    expect(overridden.headers).toEqual([{ name: 'Authorization', values: ['Token t'] }]);
  });

  test('checkCurlUrl after templating', () => {
    expect(() => checkCurlUrl('https://x.test/login')).not.toThrow();
    expect(() => checkCurlUrl('http://127.0.0.1:8080/')).not.toThrow();
    for (const url of ['file:///etc/passwd', 'gopher://x.test/', 'ftp://x.test/', 'javascript:alert(1)']) {
      expect(() => checkCurlUrl(url)).toThrow(expect.objectContaining({ code: 'CURL_FORBIDDEN' }));
    }
    try {
      checkCurlUrl('x.test/login?token=secret-token');
      throw new Error('accepted');
    } catch (error) {
      expect((error as MultiAuthError).code).toBe('CURL_PARSE');
      expect((error as MultiAuthError).render()).not.toContain('secret-token');
    }
  });
});

test.describe('curl rules', () => {
  test('methods: upper-cased, checked, kept with data', () => {
    expect(parseCurl('curl -X patch https://x.test -d a').method).toBe('PATCH');
    expect(parseCurl('curl -X HEAD https://x.test').method).toBe('HEAD');
    expect(refusal('curl -X PROPFIND https://x.test').hint).toContain('PATCH');
    expect(parseCurl('curl -G https://x.test -d a=1').method).toBe('GET');
  });

  test('headers: grouped by name, checked', () => {
    expect(parseCurl("curl https://x.test -H 'X-A: 1' -H 'x-a: 2' -H 'X-B: 3'").headers).toEqual([
      { name: 'X-A', values: ['1', '2'] },
      { name: 'X-B', values: ['3'] },
    ]);
    expect(refusal("curl https://x.test -H 'NoColon'").code).toBe('CURL_PARSE');
    expect(refusal("curl https://x.test -H 'Bad Name: x'").message).toContain('`Bad Name`');
    expect(refusal("curl https://x.test -H $'X-A: 1\\r\\nX-Evil: 2'").message).toContain('line break');
    expect(parseCurl("curl https://x.test -H '{{header_name}}: {{header_value}}'").headers)
      .toEqual([{ name: '{{header_name}}', values: ['{{header_value}}'] }]);
  });

  test('-u needs a password; -A and -e can be emptied', () => {
    expect(refusal('curl -u alice https://x.test').hint).toContain('user:password');
    expect(parseCurl("curl -u 'alice:' https://x.test").headers).toEqual([{ name: 'Authorization', values: ['Basic YWxpY2U6'] }]);
    expect(parseCurl("curl -A '' -e '' https://x.test").headers).toEqual([]);
  });

  test('timeouts and redirects', () => {
    expect(parseCurl('curl -m 0 https://x.test').timeout).toBeUndefined();
    expect(parseCurl('curl -m 0.1 https://x.test').timeout).toBe(1);
    expect(parseCurl('curl -L --max-redirs -1 https://x.test').followRedirects).toBe(50);
    expect(parseCurl('curl -L --max-redirs 0 https://x.test').followRedirects).toBe(0);
    expect(parseCurl('curl --max-redirs 5 https://x.test').followRedirects).toBe(0);
    expect(refusal('curl -m soon https://x.test').code).toBe('CURL_PARSE');
    expect(refusal('curl --connect-timeout -1 https://x.test').code).toBe('CURL_PARSE');
    expect(refusal('curl --max-redirs 1.5 https://x.test').code).toBe('CURL_PARSE');
  });

  test('proxies: HTTP(S) only, host:port means http', () => {
    expect(parseCurl('curl -x https://p.test:8443 https://x.test').proxy).toBe('https://p.test:8443');
    expect(parseCurl('curl -x {{proxy}} https://x.test').proxy).toBe('{{proxy}}');
    expect(parseCurl("curl -x '' https://x.test").proxy).toBeUndefined();
    expect(refusal('curl -x socks4://p.test:1080 https://x.test').message).toContain('socks4 proxies');
  });

  test('-b: cookie data, empty ignored, file refused', () => {
    expect(parseCurl("curl -b '' https://x.test").headers).toEqual([]);
    expect(parseCurl("curl --cookie 'a=1' https://x.test").headers).toEqual([{ name: 'Cookie', values: ['a=1'] }]);
    expect(refusal('curl --cookie cookies.txt https://x.test').message).toContain('`--cookie <file>`');
  });
});

test.describe('--data-urlencode with {{variables}}', () => {
  test('a form of name=value fields becomes an object, encoded by the runtime after templating', () => {
    const request = parseCurl("curl https://x.test -d 'grant_type=password&scope=a+b' --data-urlencode 'password={{password}}'");
    expect(request.body).toEqual({ grant_type: 'password', scope: 'a b', password: '{{password}}' });
  });

  test('falls back to curl text when an object cannot say the same', () => {
    const text = (command: string) => parseCurl(command).body;
    expect(text("curl https://x.test --data-urlencode 'q=a b {{x}}' -d 'flag'")).toBe('q=a+b+{{x}}&flag');
    expect(text("curl https://x.test --data-urlencode 'a={{x}}' -d 'a=2'")).toBe('a={{x}}&a=2');
    expect(text("curl https://x.test --data-urlencode '{{x}}'")).toBe('{{x}}');
    expect(text("curl https://x.test --data-urlencode '0={{x}}'")).toBe('0={{x}}');
    expect(text("curl https://x.test -H 'Content-Type: text/plain' --data-urlencode 'a={{x}}'")).toBe('a={{x}}');
    expect(text("curl https://x.test -H 'Content-Type:' --data-urlencode 'a={{x}}'")).toBe('a={{x}}');
    expect(text("curl https://x.test --data-urlencode 'a=b c'")).toBe('a=b+c');
  });
});

test.describe('Windows cmd', () => {
  test('caret escapes, continuations and CRLF', () => {
    const request = parseCurl('curl ^"https://x.test/a?b=1^&c=2^" ^\r\n  -H ^"X-A: 1^" ^\r\n  -d ^"a=^%^41^"\r\n');
    expect(request).toMatchObject({ url: 'https://x.test/a?b=1&c=2', body: 'a=%41', headers: [{ name: 'X-A', values: ['1'] }, expect.anything()] });
  });

  test('the C runtime rules for backslashes before quotes', () => {
    expect(parseCurl('curl ^"https://x.test^" ^\n --data-raw ^"a\\\\\\^"b\\\\^"').body).toBe('a\\"b\\');
  });

  test('a line break without ^ is a second command', () => {
    expect(refusal('curl ^"https://x.test^" ^\n -d a\ncalc.exe').message).toContain('line break');
  });
});
