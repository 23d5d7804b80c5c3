/**
 * The parts `npm run production-local` runs in its own process, each on its own (the whole
 * command, with the service, is test/e2e/production-local.test.ts): the local CA made with
 * openssl, the mail sink as the service's SMTP client (nodemailer) meets it, STARTTLS included,
 * the TLS front, the price source, and the supervisor's stop.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalTls, type LocalTls } from '../../scripts/production-local/certificates.ts';
import { createHttpsClient, type HttpsClient } from '../../scripts/production-local/https-client.ts';
import { decodeQuotedPrintable, startMailSink } from '../../scripts/production-local/mail-sink.ts';
import { startPriceSource } from '../../scripts/production-local/price-source.ts';
import { createSupervisor } from '../../scripts/production-local/supervisor.ts';
import { startTlsFront } from '../../scripts/production-local/tls-front.ts';

let tls: LocalTls;
let client: HttpsClient;
const dir = mkdtempSync(path.join(tmpdir(), 'production-local-parts-'));

beforeAll(async () => {
  tls = await createLocalTls(path.join(dir, 'tls'));
  client = createHttpsClient(tls.caPem);
});
afterAll(() => client?.close());

describe('the mail sink', () => {
  it('takes the service’s mail over STARTTLS (the local CA trusted, as NODE_EXTRA_CA_CERTS does) and keeps it readable', async () => {
    const received: Array<{ file: string; overTls: boolean }> = [];
    const sink = await startMailSink(tls, 0, path.join(dir, 'mail'), (file, overTls) => received.push({ file, overTls }));
    const link = `https://localhost:3443/app/ops/accept-invitation#${'x'.repeat(60)}`;
    // requireTLS: a sink that did not offer STARTTLS, or a certificate not trusted, fails the send.
    const transport = nodemailer.createTransport({ url: sink.url, requireTLS: true, tls: { ca: tls.caPem } });
    await transport.sendMail({ from: 'no-reply@production-local.test', to: 'operator@production-local.test', subject: 'You are invited', text: `Choose your password at ${link}\n.a line that starts with a dot\n` });
    transport.close();
    await sink.close();

    expect(received).toEqual([{ file: path.join(dir, 'mail', '0001.eml'), overTls: true }]);
    const readable = readFileSync(path.join(dir, 'mail', '0001.txt'), 'utf8');
    expect(readable).toContain('Subject: You are invited');
    expect(readable).toContain(link);
    expect(readable).toContain('\n.a line that starts with a dot');
  });

  it('decodes quoted-printable: soft line breaks and escaped bytes (UTF-8)', () => {
    expect(decodeQuotedPrintable('https://example.com/a#abc=\r\ndef =3D S=C3=A3o Paulo')).toBe('https://example.com/a#abcdef = São Paulo');
  });
});

describe('the TLS front', () => {
  const upstreams: Server[] = [];
  const seen: Array<{ port: number; headers: IncomingHttpHeaders; body: string }> = [];

  async function upstream(): Promise<number> {
    const server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        seen.push({ port: (server.address() as { port: number }).port, headers: request.headers, body });
        response.writeHead(201, { 'content-type': 'application/json' }).end('{"ok":true}');
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    upstreams.push(server);
    return (server.address() as { port: number }).port;
  }

  afterAll(() => upstreams.forEach((server) => server.close()));

  it('terminates https, passes each request to the api processes in turn, and says who called and how', async () => {
    const ports = [await upstream(), await upstream()];
    const front = await startTlsFront(tls, 0, ports);
    try {
      for (const n of [1, 2]) {
        const answer = await client.call('POST', `${front.url}/api/v1/payin`, { body: { n }, headers: { 'x-forwarded-for': '203.0.113.9' } });
        expect(answer).toEqual({ status: 201, body: { ok: true } });
      }
    } finally {
      await front.close();
    }
    expect(seen.map((s) => s.port)).toEqual(ports);
    expect(seen.map((s) => s.body)).toEqual(['{"n":1}', '{"n":2}']);
    // The client's own X-Forwarded-For is dropped: the service believes this hop alone (TRUST_PROXY=127.0.0.1).
    expect(seen[0]!.headers).toMatchObject({ 'x-forwarded-for': '127.0.0.1', 'x-forwarded-proto': 'https', 'x-forwarded-host': expect.stringMatching(/^localhost:\d+$/) });
  });

  it('tries the next process when one refuses the connection, and answers 502 when none answers', async () => {
    const live = await upstream();
    const closed = await upstream();
    upstreams.pop()!.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const front = await startTlsFront(tls, 0, [closed, live]);
    const frontOfNone = await startTlsFront(tls, 0, [closed]);
    try {
      expect((await client.call('GET', `${front.url}/readyz`)).status).toBe(201);
      const none = await client.call('GET', `${frontOfNone.url}/readyz`);
      expect(none.status).toBe(502);
      expect(none.body).toMatchObject({ error: 'BAD_GATEWAY' });
    } finally {
      await Promise.all([front.close(), frontOfNone.close()]);
    }
  });
});

describe('the price source', () => {
  it('serves the document the HTTP price adapter reads, over https, with a fresh timestamp; PUT changes a rate', async () => {
    const price = await startPriceSource(tls, 0, '5.40');
    try {
      const first = await client.call('GET', price.url);
      expect(first.status).toBe(200);
      expect(first.body.rates).toEqual({ USDC: '5.40' });
      expect(Math.abs(Date.parse(first.body.timestamp as string) - Date.now())).toBeLessThan(60_000);
      expect((await client.call('PUT', price.url, { body: { USDC: 5.5 } })).status).toBe(400);
      expect((await client.call('PUT', price.url, { body: { USDC: '5.55' } })).body).toEqual({ rates: { USDC: '5.55' } });
      expect((await client.call('GET', price.url)).body.rates).toEqual({ USDC: '5.55' });
    } finally {
      await price.close();
    }
  });
});

describe('the supervisor', () => {
  const lines: string[] = [];
  const logs = mkdtempSync(path.join(tmpdir(), 'production-local-logs-'));
  const node = (name: string, code: string, run: ReturnType<typeof createSupervisor>, wave: 0 | 1 = 0) => run.spawnNode(name, '--input-type=module', ['-e', code], {}, wave);

  it('stops every child on request: SIGTERM first, SIGKILL after the grace to one that ignores it; none is left', async () => {
    const run = createSupervisor(logs, { write: (line) => lines.push(line), graceMs: 500 });
    // Each says 'up' only once its handler is set: said first, a SIGTERM could arrive before it.
    const polite = node('polite', "process.on('SIGTERM', () => process.exit(0)); console.log('up'); setInterval(() => {}, 1000);", run);
    const stubborn = node('stubborn', "process.on('SIGTERM', () => {}); console.log('up'); setInterval(() => {}, 1000);", run, 1);
    await Promise.all([polite.line((l) => l === 'up', 10_000), stubborn.line((l) => l === 'up', 10_000)]);
    const result = await run.stop();
    expect(result).toEqual({ stopped: 2, unclean: ['stubborn (killed after the grace)'], alive: [] });
    expect(readFileSync(polite.logFile, 'utf8')).toBe('up\n');
  });

  it('a child that exits by itself stops the run with code 1, naming it and its last lines', async () => {
    const run = createSupervisor(logs, { write: (line) => lines.push(line) });
    node('crashing', "console.error('fatal: something broke'); process.exit(3);", run);
    expect(await run.stopRequested).toBe(1);
    expect(lines.at(-1)).toContain('crashing exited by itself (code 3)');
    expect(lines.at(-1)).toContain('fatal: something broke');
    expect(await run.stop()).toEqual({ stopped: 1, unclean: ['crashing (exit 3)'], alive: [] });
  });

  it('a step prints one line: its name, what it made, its time; a failed one prints why and throws', async () => {
    const run = createSupervisor(logs, { write: (line) => lines.push(line) });
    await run.step('price-source', async () => 'https://localhost:9443/v1/prices', (url) => url);
    expect(lines.at(-1)).toMatch(/^\s+\d+\.\d s {2}✓ price-source {5}https:\/\/localhost:9443\/v1\/prices \(\d+\.\d s\)$/);
    await expect(run.step('postgres', () => Promise.reject(new Error('cannot reach PostgreSQL')), () => '')).rejects.toThrow();
    expect(lines.at(-1)).toMatch(/✗ postgres +cannot reach PostgreSQL$/);
  });
});
