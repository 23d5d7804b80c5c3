/**
 * The server side of RFC 6455 WebSockets, as much as a JSON-RPC subscription needs: the
 * handshake, text frames (masked from the client, unmasked to it, fragments joined), ping/pong
 * and close. No extensions (no compression), so every frame is plain.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
const MAX_MESSAGE = 1 << 20;

export interface WebSocketConnection {
  send(text: string): void;
  close(): void;
  readonly closed: boolean;
}

function frame(opcode: number, payload: Buffer): Buffer {
  const length = payload.length;
  const header = length < 126 ? Buffer.alloc(2) : length < 65536 ? Buffer.alloc(4) : Buffer.alloc(10);
  header[0] = 0x80 | opcode;
  if (length < 126) header[1] = length;
  else if (length < 65536) {
    header[1] = 126;
    header.writeUInt16BE(length, 2);
  } else {
    header[1] = 127;
    header.writeBigUInt64BE(BigInt(length), 2);
  }
  return Buffer.concat([header, payload]);
}

/** Accepts the upgrade; `onMessage` gets each text message, `onClose` once. Refuses a request that is not a WebSocket handshake. */
export function acceptWebSocket(
  request: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  handlers: { onMessage(connection: WebSocketConnection, text: string): void; onClose(connection: WebSocketConnection): void },
): void {
  const key = request.headers['sec-websocket-key'];
  if (typeof key !== 'string' || (request.headers.upgrade ?? '').toLowerCase() !== 'websocket') {
    socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
    return;
  }
  const accept = createHash('sha1').update(key + GUID).digest('base64');
  socket.write(`HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nconnection: Upgrade\r\nsec-websocket-accept: ${accept}\r\n\r\n`);

  let buffered: Buffer = head.length ? Buffer.from(head) : Buffer.alloc(0);
  let fragments: Buffer[] = [];
  let closed = false;
  const connection: WebSocketConnection = {
    send(text) {
      if (!closed) socket.write(frame(0x1, Buffer.from(text, 'utf8')));
    },
    close() {
      if (closed) return;
      closed = true;
      socket.end(frame(0x8, Buffer.alloc(0)));
      handlers.onClose(connection);
    },
    get closed() {
      return closed;
    },
  };

  function parse() {
    for (;;) {
      if (buffered.length < 2) return;
      const fin = (buffered[0]! & 0x80) !== 0;
      const opcode = buffered[0]! & 0x0f;
      const masked = (buffered[1]! & 0x80) !== 0;
      let length = buffered[1]! & 0x7f;
      let at = 2;
      if (length === 126) {
        if (buffered.length < 4) return;
        length = buffered.readUInt16BE(2);
        at = 4;
      } else if (length === 127) {
        if (buffered.length < 10) return;
        length = Number(buffered.readBigUInt64BE(2));
        at = 10;
      }
      if (length > MAX_MESSAGE) return connection.close();
      const maskAt = at;
      if (masked) at += 4;
      if (buffered.length < at + length) return;
      const payload = Buffer.from(buffered.subarray(at, at + length));
      if (masked) for (let i = 0; i < payload.length; i++) payload[i]! ^= buffered[maskAt + (i % 4)]!;
      buffered = buffered.subarray(at + length);
      if (opcode === 0x8) return connection.close();
      if (opcode === 0x9) socket.write(frame(0xa, payload));
      else if (opcode === 0x1 || opcode === 0x0) {
        fragments.push(payload);
        if (fin) {
          const text = Buffer.concat(fragments).toString('utf8');
          fragments = [];
          handlers.onMessage(connection, text);
        }
      }
    }
  }

  socket.on('data', (chunk: Buffer) => {
    buffered = buffered.length ? Buffer.concat([buffered, chunk]) : chunk;
    parse();
  });
  socket.on('close', () => {
    if (!closed) {
      closed = true;
      handlers.onClose(connection);
    }
  });
  socket.on('error', () => socket.destroy());
  parse();
}
