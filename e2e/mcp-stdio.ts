/**
 * The MCP server as a desktop assistant starts it (`node <entry> --db FILE` over stdio; the entry
 * is the TypeScript source, run with tsx and the `@anamnesis/source` condition), spoken to by hand:
 * JSON-RPC 2.0, one message a line, as the MCP stdio transport is.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const PACKAGE = fileURLToPath(new URL('../packages/mcp/', import.meta.url));

/** A running server: call a tool, read its log, stop it. */
export interface McpSession {
  /** The text of a tool's answer (`INTERNAL` errors and tool errors reject). */
  call(name: string, args: Record<string, unknown>): Promise<string>;
  stderr(): string;
  close(): Promise<void>;
}

export async function startMcp(db: string, env: Record<string, string>): Promise<McpSession> {
  const child = spawn(
    process.execPath,
    ['--conditions=@anamnesis/source', '--import', 'tsx', 'src/bin.ts', '--db', db],
    { cwd: PACKAGE, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const pending = new Map<
    number,
    { resolve: (message: Record<string, unknown>) => void; reject: (e: Error) => void }
  >();
  child.once('exit', () => {
    for (const { reject } of pending.values()) reject(new Error(`the MCP server exited: ${err}`));
    pending.clear();
  });
  let buffer = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
      const line = buffer.slice(0, nl).trim();
      buffer = buffer.slice(nl + 1);
      if (!line) continue;
      const message = JSON.parse(line) as Record<string, unknown>;
      const answer = pending.get(message.id as number);
      if (answer) {
        pending.delete(message.id as number);
        answer.resolve(message);
      }
    }
  });
  let next = 0;
  const request = (method: string, params: unknown) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const id = ++next;
      pending.set(id, { resolve, reject });
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  await request('initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'anamnesis-e2e', version: '0.0.0' },
  });
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  return {
    async call(name, args) {
      const message = await request('tools/call', { name, arguments: args });
      if (message.error) throw new Error(JSON.stringify(message.error));
      const result = message.result as {
        content: { type: string; text?: string }[];
        isError?: boolean;
      };
      const text = result.content.map((c) => c.text ?? '').join('\n');
      if (result.isError) throw new Error(text);
      return text;
    },
    stderr: () => err,
    close: async () => {
      child.stdin.end();
      if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}
