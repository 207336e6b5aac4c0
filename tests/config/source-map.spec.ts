import { test, expect } from '@playwright/test';
import { LineCounter, parseDocument } from 'yaml';
import { SourceMap } from '../../src/config/source-map.js';

function mapOf(text: string): SourceMap {
  const lineCounter = new LineCounter();
  return new SourceMap(parseDocument(text, { lineCounter }), lineCounter, 'f.yaml', text);
}

const TEXT = 'users:\n  - name: alice\n    credentials:\n      username: alice\n';

test('locate points at values, locateKey at keys', () => {
  const map = mapOf(TEXT);
  expect(map.locate(['users', 0, 'name'])).toEqual({ file: 'f.yaml', line: 2, column: 11 });
  expect(map.locateKey(['users', 0, 'name'])).toEqual({ file: 'f.yaml', line: 2, column: 5 });
  expect(map.locateKey(['users', 0, 'credentials', 'username'])).toEqual({ file: 'f.yaml', line: 4, column: 7 });
});

test('a path that leaves the file resolves to its nearest ancestor', () => {
  const map = mapOf(TEXT);
  expect(map.locate(['users', 0, 'credentials', 'password'])).toEqual(map.locate(['users', 0, 'credentials']));
  expect(map.locate(['users', 5, 'name'])).toEqual(map.locate(['users']));
  expect(map.locateKey(['users', 0, 'nope'])).toEqual(map.locate(['users', 0]));
});

test('pathAt finds the innermost node of an offset', () => {
  const map = mapOf(TEXT);
  expect(map.pathAt(TEXT.indexOf('alice'))).toEqual(['users', 0, 'name']);
  expect(map.pathAt(TEXT.indexOf('username'))).toEqual(['users', 0, 'credentials', 'username']);
  expect(map.pathAt(0)).toEqual(['users']);
});

test('aliases are followed', () => {
  const text = 'a: &x { k: v }\nb: *x\n';
  expect(mapOf(text).locate(['b', 'k'])).toEqual({ file: 'f.yaml', line: 1, column: 12 });
});
