/**
 * The SMTP sender against a tiny SMTP server in this process (node:net, just enough of RFC 5321
 * to take one message): nodemailer authenticates with the URL's credentials and sends the
 * envelope and message the port was given. The log sender keeps messages for tests.
 */
import { once } from 'node:events';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogEmailSender } from '../../src/adapters/email/log.ts';
import { createSmtpEmailSender } from '../../src/adapters/email/smtp.ts';

interface Received {
  commands: string[];
  data: string;
}

/** Answers each command of one session; what it received is pushed to `sessions`. */
function startSmtpServer(sessions: Received[]): Server {
  return createServer((socket) => {
    const received: Received = { commands: [], data: '' };
    sessions.push(received);
    let buffer = '';
    let inData = false;
    socket.write('220 localhost test SMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          received.data = buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          inData = false;
          socket.write('250 2.0.0 queued\r\n');
          continue;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol < 0) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        received.commands.push(line);
        const verb = line.split(' ')[0]!.toUpperCase();
        if (verb === 'EHLO') socket.write('250-localhost\r\n250-AUTH PLAIN\r\n250 8BITMIME\r\n');
        else if (verb === 'AUTH') socket.write('235 2.7.0 accepted\r\n');
        else if (verb === 'DATA') {
          inData = true;
          socket.write('354 go on\r\n');
        }
        else if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('250 OK\r\n');
      }
    });
    socket.on('error', () => undefined);
  });
}

describe('email adapters', () => {
  const sessions: Received[] = [];
  let server: Server;
  let port: number;

  beforeAll(async () => {
    server = startSmtpServer(sessions);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('SMTP: authenticates with the credentials of SMTP_URL and sends the envelope, subject and text', async () => {
    const sender = createSmtpEmailSender({ url: `smtp://mailer:s3cret-pass@127.0.0.1:${port}`, from: 'no-reply@exchange.example', timeoutMs: 5000 });
    await sender.send({ to: 'person@example.com', subject: 'Reset your password', text: 'Open http://localhost:3000/reset-password#abc\n' });
    sender.close();
    const session = sessions.at(-1)!;
    const auth = session.commands.find((c) => c.startsWith('AUTH PLAIN'))!;
    expect(Buffer.from(auth.split(' ')[2]!, 'base64').toString()).toBe('\0mailer\0s3cret-pass');
    expect(session.commands).toContain('MAIL FROM:<no-reply@exchange.example>');
    expect(session.commands).toContain('RCPT TO:<person@example.com>');
    expect(session.data).toMatch(/^Subject: Reset your password$/m);
    expect(session.data).toMatch(/^From: no-reply@exchange.example$/m);
    expect(session.data).toContain('http://localhost:3000/reset-password#abc');
  });

  it('SMTP: a refused connection rejects send (the caller logs it), without the URL or its password', async () => {
    const sender = createSmtpEmailSender({ url: 'smtp://mailer:s3cret-pass@127.0.0.1:1', from: 'no-reply@exchange.example', timeoutMs: 2000 });
    const failure = await sender.send({ to: 'person@example.com', subject: 's', text: 't' }).then(() => undefined, (err: Error) => err);
    sender.close();
    expect(failure).toBeInstanceOf(Error);
    expect(`${failure?.message} ${JSON.stringify(failure)}`).not.toContain('s3cret-pass');
  });

  it('log: writes the message, link included, and keeps the last ones', async () => {
    const lines: Array<{ obj: object; msg: string }> = [];
    const sender = createLogEmailSender({ info: (obj, msg) => lines.push({ obj, msg }) });
    for (let i = 0; i < 55; i++) await sender.send({ to: `p${i}@example.com`, subject: 'Hi', text: `link #${i}` });
    expect(sender.outbox).toHaveLength(50);
    expect(sender.outbox[0]!.to).toBe('p5@example.com');
    expect(lines.at(-1)).toEqual({ obj: { email: { to: 'p54@example.com', subject: 'Hi', text: 'link #54' } }, msg: 'email (EMAIL_PROVIDER=log: not sent)' });
  });
});
