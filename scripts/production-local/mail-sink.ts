/**
 * The mail sink: a minimal SMTP server (RFC 5321: EHLO/HELO, STARTTLS, MAIL, RCPT, DATA, RSET,
 * NOOP, QUIT) on node:net that accepts every message and keeps it as a file a person can read,
 * <dir>/NNNN.eml (the message as sent) and NNNN.txt (its quoted-printable body decoded, so a
 * password or invitation link can be copied). It offers STARTTLS with the local CA's certificate,
 * which nodemailer takes, so the service's mail is encrypted here as it would be to a real relay.
 * Nothing is relayed anywhere. The project has no SMTP server package; a maintained one
 * (nodemailer's smtp-server, or Mailpit with a web inbox) would replace this file.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import path from 'node:path';
import { TLSSocket } from 'node:tls';
import type { LocalTls } from './certificates.ts';
import { listenOnLoopback } from './listen.ts';

export interface MailSink {
  url: string;
  /** Files of the messages received so far (.eml), oldest first. */
  messages: string[];
  close(): Promise<void>;
}

const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/** Quoted-printable (RFC 2045 §6.7) to text: soft line breaks joined, =XX decoded. */
export function decodeQuotedPrintable(text: string): string {
  const bytes = text.replace(/=\r?\n/g, '').replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** The message with its body readable: headers as sent, a quoted-printable body decoded. */
function readable(message: string): string {
  const split = message.indexOf('\r\n\r\n');
  if (split < 0) return message;
  const headers = message.slice(0, split);
  const body = message.slice(split + 4);
  return `${headers}\r\n\r\n${/content-transfer-encoding:\s*quoted-printable/i.test(headers) ? decodeQuotedPrintable(body) : body}`;
}

export async function startMailSink(tls: LocalTls, port: number, dir: string, onMessage: (file: string, overTls: boolean) => void): Promise<MailSink> {
  mkdirSync(dir, { recursive: true });
  const messages: string[] = [];
  const sockets = new Set<Socket>();

  function session(plain: Socket) {
    let socket: Socket = plain;
    let buffer = '';
    let data: string[] | undefined;
    let dataBytes = 0;
    const reply = (line: string) => socket.write(`${line}\r\n`);

    function store(lines: string[]) {
      // RFC 5321 §4.5.2: a line starting with a dot was sent with one more.
      const message = lines.map((line) => (line.startsWith('..') ? line.slice(1) : line)).join('\r\n');
      const name = String(messages.length + 1).padStart(4, '0');
      const file = path.join(dir, `${name}.eml`);
      writeFileSync(file, message, { mode: 0o600 });
      writeFileSync(path.join(dir, `${name}.txt`), readable(message), { mode: 0o600 });
      messages.push(file);
      onMessage(file, socket instanceof TLSSocket);
      return name;
    }

    function command(line: string) {
      if (data) {
        if (line !== '.') {
          dataBytes += line.length + 2;
          if (dataBytes <= MAX_MESSAGE_BYTES) data.push(line);
          return;
        }
        const lines = data;
        data = undefined;
        if (dataBytes > MAX_MESSAGE_BYTES) return reply('552 message too large');
        return reply(`250 stored as ${store(lines)}`);
      }
      const verb = line.slice(0, 10).split(' ')[0]!.toUpperCase();
      if (verb === 'EHLO') return reply(`250-localhost${socket instanceof TLSSocket ? '' : '\r\n250-STARTTLS'}\r\n250-8BITMIME\r\n250 SIZE ${MAX_MESSAGE_BYTES}`);
      if (verb === 'HELO' || verb === 'MAIL' || verb === 'RCPT' || verb === 'RSET' || verb === 'NOOP') return reply('250 OK');
      if (verb === 'DATA') {
        data = [];
        dataBytes = 0;
        return reply('354 end with <CRLF>.<CRLF>');
      }
      if (verb === 'QUIT') return void socket.end('221 bye\r\n');
      if (verb === 'STARTTLS' && !(socket instanceof TLSSocket)) {
        reply('220 ready to start TLS');
        plain.removeAllListeners('data');
        buffer = '';
        socket = new TLSSocket(plain, { isServer: true, cert: tls.certPem, key: tls.keyPem });
        socket.on('data', receive);
        socket.on('error', () => plain.destroy());
        return;
      }
      reply('502 command not implemented');
    }

    function receive(chunk: Buffer) {
      buffer += chunk.toString('utf8');
      let end;
      while ((end = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        command(line);
      }
    }

    sockets.add(plain);
    plain.on('close', () => sockets.delete(plain));
    plain.on('error', () => plain.destroy());
    plain.on('data', receive);
    reply('220 localhost production-local mail sink ESMTP');
  }

  const server = createServer(session);
  const actual = await listenOnLoopback(server, port, 'the mail sink');
  return {
    url: `smtp://127.0.0.1:${actual}`,
    messages,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
