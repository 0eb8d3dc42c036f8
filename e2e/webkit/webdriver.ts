/**
 * WebKit (WebKitGTK's MiniBrowser, the engine of Safari and every iOS browser) driven over W3C
 * WebDriver: `WebKitWebDriver` under `xvfb-run`, spoken to with plain `fetch` (the few commands
 * the tests need), and a {@link Person} on it for the notes app's person-like scenarios.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import type { Duplex } from 'node:stream';

import { until, type Person } from '../tests/person.ts';

/** MiniBrowser as Debian's webkit2gtk-driver installs it. */
export const MINIBROWSER = '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** A WebDriver session in MiniBrowser. */
export interface WebKit {
  /** Runs `script` (a function body; `arguments` as WebDriver passes them) in the page. */
  run<T>(script: string, ...args: unknown[]): Promise<T>;
  /** Like {@link run} for a script that ends by calling `arguments[arguments.length - 1](value)`. */
  runAsync<T>(script: string, ...args: unknown[]): Promise<T>;
  goto(url: string): Promise<void>;
  browserVersion: string;
  /**
   * Every request the browser (its pages and their workers) made to another host than 127.0.0.1,
   * as its proxy saw it (`GET http://…`, `CONNECT host:443`); each was refused.
   */
  foreign: string[];
  close(): Promise<void>;
}

/**
 * The browser's proxy (MiniBrowser's `--proxy`; WebDriver's `proxy` capability left HTTPS
 * direct here): records each request that reaches it and refuses it, so nothing leaves the
 * machine. The apps, on 127.0.0.1, go direct (`--ignore-host`).
 */
async function refusingProxy(): Promise<{ port: number; seen: string[]; close(): void }> {
  const seen: string[] = [];
  const proxy = createHttpServer((request, response) => {
    seen.push(`${request.method} ${request.url}`);
    response.writeHead(403).end();
  });
  proxy.on('connect', (request: { url?: string }, socket: Duplex) => {
    seen.push(`CONNECT ${request.url}`);
    socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as { port: number };
  return { port, seen, close: () => proxy.close() };
}

/** Starts WebKitWebDriver under a virtual display and opens a MiniBrowser session. */
export async function startWebKit(): Promise<WebKit> {
  const proxy = await refusingProxy();
  const port = await freePort();
  const driver: ChildProcess = spawn('xvfb-run', ['-a', 'WebKitWebDriver', `--port=${port}`], {
    stdio: 'ignore',
    detached: true,
  });
  const base = `http://127.0.0.1:${port}`;
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const { value } = (await response.json()) as {
      value: T & { error?: string; message?: string };
    };
    if (!response.ok) throw new Error(`WebDriver ${path}: ${value.error}: ${value.message}`);
    return value;
  };
  let session: { sessionId: string; capabilities: { browserVersion: string } } | undefined;
  for (let attempt = 0; !session; attempt++) {
    try {
      session = await call('POST', '/session', {
        capabilities: {
          alwaysMatch: {
            browserName: 'MiniBrowser',
            'webkitgtk:browserOptions': {
              binary: MINIBROWSER,
              args: [
                '--automation',
                `--proxy=http://127.0.0.1:${proxy.port}`,
                '--ignore-host=127.0.0.1',
              ],
            },
          },
        },
      });
    } catch (e) {
      if (attempt > 100) throw e; // the driver did not start in ~20 s
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  const id = session.sessionId;
  const at = (path: string) => `/session/${id}${path}`;
  return {
    browserVersion: session.capabilities.browserVersion,
    foreign: proxy.seen,
    run: (script, ...args) => call('POST', at('/execute/sync'), { script, args }),
    runAsync: (script, ...args) => call('POST', at('/execute/async'), { script, args }),
    goto: async (url) => {
      await call('POST', at('/url'), { url });
    },
    close: async () => {
      await call('DELETE', at('')).catch(() => undefined);
      try {
        process.kill(-driver.pid!, 'SIGTERM'); // xvfb-run, Xvfb and the driver
      } catch {
        // gone already
      }
      proxy.close();
    },
  };
}

/** A person at a page in WebKit: the same acts as the Chromium and Firefox drivers. */
export function webkitPerson(webkit: WebKit): Person {
  const present = async (selector: string) => {
    const found = await until(
      () => webkit.run<boolean>('return document.querySelector(arguments[0]) !== null', selector),
      (v) => v,
    );
    if (!found) throw new Error(`${selector} never appeared`);
  };
  return {
    goto: (url) => webkit.goto(url),
    reload: () => webkit.run('location.reload()'),
    click: async (selector) => {
      await present(selector);
      // A DOM click: WebKitWebDriver's element click took about a second each here and once did
      // not reach the button clicked (New note), so a note was typed over; the suite tests the
      // app, not the driver's pointer.
      await webkit.run('document.querySelector(arguments[0]).click()', selector);
    },
    fill: async (selector, text) => {
      await present(selector);
      await webkit.run(
        `const el = document.querySelector(arguments[0]);
         el.value = arguments[1];
         el.dispatchEvent(new Event('input', { bubbles: true }));`,
        selector,
        text,
      );
    },
    openNote: async (title) => {
      const index = await until(
        () =>
          webkit.run<number>(
            `return [...document.querySelectorAll('#notes .note-title')].findIndex((e) => e.textContent === arguments[0])`,
            title,
          ),
        (i) => i >= 0,
      );
      if (index < 0) throw new Error(`note ${title} is not listed`);
      await webkit.run(
        `document.querySelectorAll('#notes .note-link')[arguments[0]].click()`,
        index,
      );
    },
    value: (selector) =>
      webkit.run<string>('return document.querySelector(arguments[0]).value', selector),
    texts: (selector) =>
      webkit.run<string[]>(
        'return [...document.querySelectorAll(arguments[0])].map((e) => e.textContent ?? "")',
        selector,
      ),
    attribute: (selector, name) =>
      webkit.run<string | null>(
        'return document.querySelector(arguments[0])?.getAttribute(arguments[1]) ?? null',
        selector,
        name,
      ),
  };
}
