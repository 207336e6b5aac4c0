import { spawn } from 'node:child_process';

/** What one child `node` process did. */
export interface NodeChildRun {
  /** The exit code, or null when a signal ended the child. */
  code: number | null;
  /** The signal that ended the child (`SIGKILL` past `timeoutMs`), or null. */
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** From the spawn to the close of the child's output. */
  elapsedMs: number;
}

/** Options of {@link runNodeChild}. */
export interface NodeChildOptions {
  cwd: string;
  /** The child's whole environment (nothing of this process's is added). */
  env: NodeJS.ProcessEnv;
  /** Kill the child with SIGKILL after this many milliseconds; default: never. */
  timeoutMs?: number;
}

/**
 * Runs `node ...args` (this process's node) in a child WITHOUT blocking this process, so servers a
 * test started in it keep answering meanwhile, and collects its output.
 *
 * @example
 * const run = await runNodeChild([script, '--flag'], { cwd: ROOT, env: { PATH: process.env.PATH } });
 * run.code; // 0
 */
export function runNodeChild(args: string[], options: NodeChildOptions): Promise<NodeChildRun> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const timer = options.timeoutMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    let stdout = '';
    let stderr = '';
    // Decoded as a stream, so a character split between two chunks is not mangled.
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, elapsedMs: performance.now() - started });
    });
  });
}
