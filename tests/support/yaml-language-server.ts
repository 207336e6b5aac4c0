import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './root.js';

/** One LSP message as JSON-RPC 2.0 carries it. */
interface Message {
  id?: number | string;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { code: number; message: string };
}

/** A diagnostic as the server publishes it (the part the tests read). */
export interface Diagnostic {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  message: string;
  severity?: number;
}

/** A zero-based position in a document. */
export interface Position {
  line: number;
  character: number;
}

/** Far above any message of these tests; a server that sends more is broken. */
const MAX_BUFFER = 64 * 1024 * 1024;
const REQUEST_TIMEOUT_MS = 15_000;
/** Diagnostics settle when no new ones came for this long (the server validates on a debounce). */
const DIAGNOSTICS_QUIET_MS = 400;

/**
 * The real `yaml-language-server`, as editors run it: a child over stdio speaking LSP (JSON-RPC
 * framed by `Content-Length` headers). It answers the server's own requests (configuration,
 * capability registration) the way an editor with default settings does.
 *
 * @example
 * const lsp = await YamlLanguageServer.start(dir);
 * lsp.open(uri, text);
 * const hover = await lsp.request('textDocument/hover', { textDocument: { uri }, position: { line: 1, character: 2 } });
 * await lsp.stop();
 */
export class YamlLanguageServer {
  private buffer = Buffer.alloc(0);
  private nextId = 0;
  private readonly pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void; timer: NodeJS.Timeout }>();
  private readonly diagnostics = new Map<string, { list: Diagnostic[]; at: number }>();
  private stderr = '';
  private exited = false;

  private constructor(private readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.on('data', (chunk: Buffer) => this.receive(chunk));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (this.stderr = (this.stderr + text).slice(-4000)));
    child.on('exit', () => {
      this.exited = true;
      for (const [, call] of this.pending) call.reject(new Error(`yaml-language-server exited: ${this.stderr}`));
      this.pending.clear();
    });
  }

  /** Starts the server with `dir` as the workspace and initializes it (validate, hover, completion on). */
  static async start(dir: string): Promise<YamlLanguageServer> {
    const bin = join(ROOT, 'node_modules', 'yaml-language-server', 'bin', 'yaml-language-server');
    const child = spawn(process.execPath, [bin, '--stdio'], { cwd: dir, stdio: ['pipe', 'pipe', 'pipe'] });
    const server = new YamlLanguageServer(child);
    const rootUri = `file://${dir}`;
    await server.request('initialize', {
      processId: process.pid, rootUri, workspaceFolders: [{ uri: rootUri, name: 'project' }],
      capabilities: {
        workspace: { configuration: true },
        textDocument: { hover: { contentFormat: ['markdown', 'plaintext'] }, completion: { completionItem: { snippetSupport: true } } },
      },
    });
    server.notify('initialized', {});
    server.notify('workspace/didChangeConfiguration', { settings: { yaml: SETTINGS } });
    return server;
  }

  /** Sends a request and resolves with its result (rejects on an error answer or after 15 s). */
  request<T = unknown>(method: string, params: unknown): Promise<T> {
    const id = ++this.nextId;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`no answer to ${method} within ${REQUEST_TIMEOUT_MS} ms`));
      }, REQUEST_TIMEOUT_MS);
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject, timer });
      this.send({ id, method, params });
    });
  }

  /** Sends a notification (no answer). */
  notify(method: string, params: unknown): void {
    this.send({ method, params });
  }

  /** Opens a YAML document in the server. */
  open(uri: string, text: string): void {
    this.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text } });
  }

  /** The hover text (markdown) at `position`, `''` when the server shows none. */
  async hover(uri: string, position: Position): Promise<string> {
    const result = await this.request<{ contents?: { value?: string } | string } | null>('textDocument/hover', { textDocument: { uri }, position });
    const contents = result?.contents;
    return typeof contents === 'string' ? contents : contents?.value ?? '';
  }

  /** The labels the server completes at `position`. */
  async completion(uri: string, position: Position): Promise<string[]> {
    const result = await this.request<{ items?: Array<{ label: string }> } | Array<{ label: string }> | null>('textDocument/completion', { textDocument: { uri }, position });
    const items = Array.isArray(result) ? result : result?.items ?? [];
    return items.map((item) => item.label);
  }

  /**
   * The diagnostics the server published for `uri` once they settle (none new for a moment), or
   * an error after 15 s without any.
   */
  async settledDiagnostics(uri: string): Promise<Diagnostic[]> {
    const deadline = Date.now() + REQUEST_TIMEOUT_MS;
    for (;;) {
      const seen = this.diagnostics.get(uri);
      if (seen && Date.now() - seen.at >= DIAGNOSTICS_QUIET_MS) return seen.list;
      if (Date.now() > deadline) throw new Error(`no diagnostics for ${uri} within ${REQUEST_TIMEOUT_MS} ms: ${this.stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Shuts the server down as an editor does, and kills it if it does not exit within 2 s. */
  async stop(): Promise<void> {
    if (this.exited) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    await this.request('shutdown', null).catch(() => undefined);
    this.notify('exit', null);
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 2000);
    await exited;
    clearTimeout(timer);
  }

  private send(message: Message): void {
    const body = JSON.stringify({ jsonrpc: '2.0', ...message });
    this.child.stdin.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  }

  private receive(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    if (this.buffer.length > MAX_BUFFER) return this.fail(`more than ${MAX_BUFFER} bytes without a whole message`);
    for (;;) {
      const headerEnd = this.buffer.indexOf('\r\n\r\n');
      if (headerEnd < 0) return;
      const length = Number(/Content-Length: *(\d{1,9})/i.exec(this.buffer.subarray(0, headerEnd).toString('ascii'))?.[1]);
      if (!Number.isInteger(length)) return this.fail('a message without Content-Length');
      if (this.buffer.length < headerEnd + 4 + length) return;
      const message = JSON.parse(this.buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString('utf8')) as Message;
      this.buffer = this.buffer.subarray(headerEnd + 4 + length);
      this.dispatch(message);
    }
  }

  /** A server that breaks the protocol is stopped; its pending requests fail with why. */
  private fail(why: string): void {
    this.stderr += `\nthe test's client stopped the server: ${why}`;
    this.buffer = Buffer.alloc(0);
    this.child.kill('SIGKILL');
  }

  private dispatch(message: Message): void {
    if (message.method !== undefined && message.id !== undefined) {
      // A request of the server's own: answer as an editor with default settings would.
      const items = (message.params as { items?: unknown[] } | undefined)?.items ?? [];
      this.send({ id: message.id, result: message.method === 'workspace/configuration' ? items.map(() => SETTINGS) : null });
      return;
    }
    if (message.method === 'textDocument/publishDiagnostics') {
      const { uri, diagnostics } = message.params as { uri: string; diagnostics: Diagnostic[] };
      this.diagnostics.set(uri, { list: diagnostics, at: Date.now() });
      return;
    }
    if (typeof message.id !== 'number') return;
    const call = this.pending.get(message.id);
    if (!call) return;
    this.pending.delete(message.id);
    clearTimeout(call.timer);
    if (message.error) call.reject(new Error(`${message.error.code}: ${message.error.message}`));
    else call.resolve(message.result);
  }
}

/** The `yaml.*` settings of an editor that has the extension with its defaults. */
const SETTINGS = { validate: true, hover: true, completion: true, format: { enable: false } };
