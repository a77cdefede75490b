/**
 * The HTTP server's drain on shutdown (SIGTERM, a rolling restart): no new connections, every request that has
 * reached this gateway answered, then every connection closed.
 *
 * Hand-written in place of @apollo/server's drain plugin, whose rule (shared by stoppable and Node's own
 * `server.close()`) is "a connection without a request in flight is idle: end it now". A connection a proxy has
 * just opened, whose request is still in the kernel's buffer or half parsed, is not idle: ended under it, its
 * request was still read and served, the write stored, and the answer lost with the connection (nginx answered 502
 * for a stored message during a rolling restart: gateway/test/scaleout/nginx.test.ts). Here:
 * - a connection that has not sent its first request yet gets `FRESH_CONNECTION_MS` to send it;
 * - a connection that was answered and waits (keep-alive) is ended at once, as every drain does: a client that sends
 *   on it at that very moment sees the connection close unanswered, which HTTP clients retry (RFC 9112 §9.3.1) — and
 *   such a request is dropped unread here (`handler`), never served without its answer;
 * - every request answered during the drain carries `Connection: close`, and its connection ends after it;
 * - after `DRAIN_GRACE_MS` whatever is left is destroyed.
 * Upgraded connections (websockets) are left to the websocket server's own close (1001).
 */
import { Server, createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';

/** How long a connection without its first request yet is given to send it once the drain has begun. */
const FRESH_CONNECTION_MS = 2_000;
/** How long the drain waits for requests in flight before it destroys what is left. */
const DRAIN_GRACE_MS = 10_000;

interface Connection {
  inFlight: number;
  /** Whether a request of this connection was answered: a keep-alive connection, not a fresh one. */
  answered: boolean;
  upgraded: boolean;
}

interface DrainableServer {
  server: Server;
  /** Stops accepting, answers what arrived, closes every connection; resolves once all are closed. */
  drain: () => Promise<void>;
}

export function createDrainableServer(app: RequestListener): DrainableServer {
  const connections = new Map<Socket, Connection>();
  let draining = false;

  const handler: RequestListener = (req, res) => {
    // A request read from a connection whose sending side the drain has ended could never be answered: dropped
    // unserved, so nothing is written that the client is not told about.
    if (req.socket.writableEnded || req.socket.destroyed) return void req.socket.destroy();
    app(req, res);
  };
  const server = createServer(handler);

  server.on('connection', (socket: Socket) => {
    connections.set(socket, { inFlight: 0, answered: false, upgraded: false });
    socket.once('close', () => connections.delete(socket));
  });
  server.on('upgrade', (req: IncomingMessage) => {
    const connection = connections.get(req.socket);
    if (connection) connection.upgraded = true;
  });
  // First of the request listeners, so the header is set before the app answers.
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const connection = connections.get(req.socket);
    if (!connection) return;
    connection.inFlight++;
    if (draining) res.setHeader('Connection', 'close');
    res.once('close', () => {
      connection.inFlight--;
      connection.answered = true;
      if (draining && connection.inFlight === 0) req.socket.end();
    });
  });

  const endIfIdle = (socket: Socket) => {
    const connection = connections.get(socket);
    if (connection && !connection.upgraded && connection.inFlight === 0) socket.end();
  };

  const drain = () =>
    new Promise<void>((resolve) => {
      draining = true;
      const timers: NodeJS.Timeout[] = [];
      // net.Server's close, not http.Server's: the latter first closes every connection Node sees as idle, which
      // includes one whose request has arrived but not been parsed (the race above). This stops accepting and
      // calls back once every connection has closed.
      NetServer.prototype.close.call(server, () => {
        timers.forEach(clearTimeout);
        resolve();
      });
      for (const [socket, connection] of connections) {
        if (connection.upgraded || connection.inFlight > 0) continue;
        if (connection.answered) socket.end();
        else timers.push(setTimeout(() => endIfIdle(socket), FRESH_CONNECTION_MS));
      }
      timers.push(
        setTimeout(() => {
          for (const socket of connections.keys()) socket.destroy();
        }, DRAIN_GRACE_MS),
      );
    });

  return { server, drain };
}
