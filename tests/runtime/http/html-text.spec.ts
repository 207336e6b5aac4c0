import { test, expect } from '@playwright/test';
import { Redactor } from '../../../src/core/redactor.js';
import { readHtml } from '../../../src/runtime/http/html-text.js';
import { answeredWithForm, bodyLines } from '../../../src/runtime/http/excerpt.js';
import type { Observation } from '../../../src/runtime/http/observation.js';

/** Django's 403 page: a long <style> head, the sentence far down. */
const CSRF_403 = `<!DOCTYPE html><html lang="en"><head><meta http-equiv="content-type" content="text/html; charset=utf-8">
<title>403 Forbidden</title><style>${'html * { padding:0; margin:0; } body * { padding:10px 20px; } '.repeat(40)}</style>
<script>var x = "<p>not text</p>";</script></head>
<body><div id="summary"><h1>Forbidden <span>(403)</span></h1><p>CSRF verification failed. Request aborted.</p></div></body></html>`;

test('the visible text leaves out markup, head, scripts and styles', () => {
  const page = readHtml(CSRF_403);
  expect(page.text).toBe('Forbidden (403) CSRF verification failed. Request aborted.');
  expect(page.messages).toEqual([]);
});

test('error messages are found where the page marks them, the innermost when they nest', () => {
  const page = readHtml(`<html><body><div class="content"><p class="errornote">Please enter the correct username and password for a staff account.</p>
<ul class="errorlist nonfield"><li>Please enter the correct username and password</li></ul>
<div id="login_error" class="notice notice-error"><strong>Error:</strong> The password you entered for the username <strong>admin</strong> is incorrect.</div>
<div role="alert"></div>
<form method="post" action="/admin/login/"><input name="username" aria-invalid="true" aria-describedby="u-err"><span id="u-err">Unknown user</span>
<input type="password" name="password"></form></div></body></html>`);
  expect(page.messages).toEqual([
    'Please enter the correct username and password for a staff account.',
    'Please enter the correct username and password',
    'Error: The password you entered for the username admin is incorrect.',
    'Unknown user',
  ]);
  expect(page.passwordField).toBe(true);
  expect(page.formActions).toEqual(['/admin/login/']);
});

test('entities are decoded; hidden elements, comments and unclosed heads do not hide or leak text', () => {
  const page = readHtml(`<head><title>t</title><body><!-- <p>x</p> --><p hidden>secret-ish</p><p>Tom &amp; Jerry&#39;s &#x41;&nbsp;b</p>`);
  expect(page.text).toBe('Tom & Jerry\'s A b');
});

test('hostile markup is read in linear time', () => {
  const started = performance.now();
  for (const hostile of ['<a '.repeat(200_000), '<div class="error">'.repeat(100_000), `<p x="${'"'.repeat(100_000)}`, '&#'.repeat(300_000), `<${'a'.repeat(500_000)}`]) {
    readHtml(hostile);
  }
  expect(performance.now() - started).toBeLessThan(3000);
});

test('a 403 HTML page is quoted by its sentence, not its CSS', () => {
  const lines = bodyLines(CSRF_403, new Redactor(), 'response body', 'text/html');
  expect(lines).toEqual(['response body: an HTML page (' + CSRF_403.length + ' characters) reading: "Forbidden (403) CSRF verification failed. Request aborted."']);
});

test('a page\'s message is redacted before it is shown', () => {
  const redactor = new Redactor();
  redactor.add('hunter2-secret');
  const lines = bodyLines('<html><body><p role="alert">Wrong password hunter2-secret</p></body></html>', redactor, 'body');
  expect(lines.join('\n')).not.toContain('hunter2-secret');
  expect(lines[0]).toBe('the page says: "Wrong password ********"');
});

test('a form POST answered with a password form, or with a form posting back to the same path, is a form answered again', () => {
  const observe = (body: string, url = 'http://a.test/login', form = true): Observation => ({
    requests: [{ method: 'POST', url: 'http://a.test/login', headers: [['Content-Type', form ? 'application/x-www-form-urlencoded' : 'application/json']] }],
    responses: [{ url, status: 200, headers: [['Content-Type', 'text/html']], body }],
    cookies: [],
    urls: [],
  });
  expect(answeredWithForm(observe('<form><input type="password"></form>'))).toBe(true);
  expect(answeredWithForm(observe('<form action="/login/"><input name="otp"></form>'))).toBe(true);
  expect(answeredWithForm(observe('<form action=""><input name="otp"></form>'))).toBe(true);
  expect(answeredWithForm(observe('<form action="/search"><input name="q"></form>'))).toBe(false);
  expect(answeredWithForm(observe('<form action=""><input name="q"></form>', 'http://a.test/home'))).toBe(false);
  expect(answeredWithForm(observe('{"ok":true}'))).toBe(false);
  // A JSON API answered with a page is another story (a wrong URL, a proxy's page).
  expect(answeredWithForm(observe('<form><input type="password"></form>', 'http://a.test/login', false))).toBe(false);
});
