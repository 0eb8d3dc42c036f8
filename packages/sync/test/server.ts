/**
 * The sync server of the tests and `bench:sync`: `@y/websocket-server`'s connection handler (what
 * its `y-websocket-server` command runs) on loopback, in the caller's process, so that a test can
 * read what the server stores (`docs`, its shared documents). `onSocket` sees each connection
 * first (to count its bytes).
 */
import { createServer } from 'node:http';
import { docs, setupWSConnection } from '@y/websocket-server/utils';
import { WebSocketServer, type WebSocket } from 'ws';

export { docs };

export interface SyncServer {
  /** `ws://127.0.0.1:<port>`. */
  url: string;
  close(): void;
}

export async function startSyncServer(onSocket?: (ws: WebSocket) => void): Promise<SyncServer> {
  const wss = new WebSocketServer({ noServer: true });
  wss.on('connection', (ws: WebSocket, req) => {
    onSocket?.(ws);
    setupWSConnection(ws, req);
  });
  const server = createServer((_req, res) => res.end('okay'));
  server.on('upgrade', (req, socket, head) =>
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req)),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `ws://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () => {
      wss.close();
      server.closeAllConnections();
      server.close();
    },
  };
}
