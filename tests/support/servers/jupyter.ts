import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ensureDebianPackage } from './debian.js';
import { makeTempDir, removeDir, startDaemon, startOnFreePort } from './process.js';

const run = promisify(execFile);

/** A running Jupyter Notebook server (Debian's jupyter-notebook) with a password and no token. */
export interface JupyterServer {
  /** `http://127.0.0.1:PORT`: `/login`, `/tree`, `/api/...`. */
  url: string;
  /** The notebook's password (Jupyter has no user names). */
  password: string;
  stop(): Promise<void>;
}

/** Debian's Python: the one jupyter-notebook installs into (a pyenv's python3 on PATH does not see it). */
const PYTHON = '/usr/bin/python3';

/**
 * Starts Debian's Jupyter Notebook (installed when missing) on a free port of 127.0.0.1, in a fresh
 * directory that is its home, config, runtime and notebook directory, with a password (hashed by
 * `notebook.auth.passwd`, as `jupyter notebook password` stores it) and no token. Its `/login` form
 * posts `password` and the `_xsrf` hidden input (whose value is also the `_xsrf` cookie) and answers
 * 302 with the `username-127-0-0-1-PORT` session cookie; its API refuses a POST without
 * `X-XSRFToken` equal to the `_xsrf` cookie.
 *
 * @example
 * const jupyter = await startJupyter();
 * // GET `${jupyter.url}/login` ...
 * await jupyter.stop();
 */
export async function startJupyter(): Promise<JupyterServer> {
  await ensureDebianPackage('jupyter-notebook', 'jupyter-notebook');
  const dir = await makeTempDir('jupyter');
  const password = 'jn-pass-71d2';
  const env = {
    PATH: process.env.PATH,
    HOME: dir,
    JUPYTER_CONFIG_DIR: join(dir, 'config'),
    JUPYTER_DATA_DIR: join(dir, 'data'),
    JUPYTER_RUNTIME_DIR: join(dir, 'runtime'),
    IPYTHONDIR: join(dir, 'ipython'),
    PYTHONDONTWRITEBYTECODE: '1',
  };
  try {
    const notebooks = join(dir, 'notebooks');
    await mkdir(notebooks);
    const hash = (await run(PYTHON, ['-c', 'import sys; from notebook.auth import passwd; print(passwd(sys.argv[1]))', password], { env, timeout: 60_000 })).stdout.trim();
    const daemon = await startOnFreePort((port) =>
      startDaemon({
        name: 'jupyter',
        command: PYTHON,
        args: [
          '-m', 'notebook', '--no-browser', '--ip=127.0.0.1', `--port=${port}`, '--port-retries=0',
          `--notebook-dir=${notebooks}`, `--NotebookApp.password=${hash}`, '--NotebookApp.token=',
          ...(process.getuid?.() === 0 ? ['--allow-root'] : []),
        ],
        port,
        cwd: dir,
        env,
        timeoutMs: 60_000,
      }).then((d) => ({ d, port })),
    );
    return {
      url: `http://127.0.0.1:${daemon.port}`,
      password,
      stop: async () => {
        await daemon.d.stop();
        await removeDir(dir);
      },
    };
  } catch (error) {
    await removeDir(dir);
    throw error;
  }
}
