/**
 * The service as a user starts it: `src/main.ts` in its own process on the embedded defaults,
 * driven over a real socket.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomCpf } from '../helpers/documents.ts';
import { type RunningService, runTsToEnd, startService, waitFor } from '../helpers/processes.ts';

describe('the service over a socket, on the embedded defaults', () => {
  let dataDir: string;
  let service: RunningService;
  let base: string;

  const start = async () => {
    service = await startService(dataDir);
    base = service.base;
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'exchange-e2e-'));
    await start();
  }, 90_000);

  afterAll(async () => {
    await service?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  const demo = () => service.demoCredentials();

  it('creates a demo merchant on first start and logs its credentials once', async () => {
    const credentials = await demo();
    expect(credentials.apiKey).toMatch(/^mk_[0-9a-f]{32}$/);
    expect(credentials.apiSecret).toMatch(/^sk_/);
    expect(service.output().split(credentials.apiSecret).length - 1).toBe(1);
  });

  it('creates a demo OWNER beside it, logged once, who signs in and must enrol TOTP first', async () => {
    const { owner } = await demo();
    expect(owner.email).toBe('owner@demo.example');
    expect(service.output().split(owner.password).length - 1).toBe(1);
    const signIn = await fetch(`${base}/api/v1/auth/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(owner) });
    expect(signIn.status).toBe(201);
    expect(((await signIn.json()) as { totpEnrolmentRequired: boolean }).totpEnrolmentRequired).toBe(true);
    const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
    expect((await fetch(`${base}/api/v1/orders`, { headers: { cookie } })).status).toBe(403);
  });

  it('refuses a protected route without credentials with the Error object', async () => {
    const response = await fetch(`${base}/api/v1/merchant`);
    expect(response.status).toBe(401);
    const body = (await response.json()) as { error: string; message: string; requestId: string };
    expect(body).toMatchObject({ error: 'UNAUTHORIZED', message: expect.any(String) });
    expect(body.requestId).toBe(response.headers.get('x-request-id'));
  });

  it('accepts the demo credentials as headers and as a bearer token; a tampered token is 401', async () => {
    const { merchantId, apiKey, apiSecret } = await demo();
    const byHeaders = await fetch(`${base}/api/v1/merchant`, { headers: { 'x-api-key': apiKey, 'x-api-secret': apiSecret } });
    expect(byHeaders.status).toBe(200);
    expect(await byHeaders.json()).toMatchObject({ id: merchantId, name: 'Demo Merchant', status: 'ACTIVE' });

    const tokenResponse = await fetch(`${base}/api/v1/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiKey, apiSecret }),
    });
    expect(tokenResponse.status).toBe(200);
    const { accessToken } = (await tokenResponse.json()) as { accessToken: string };
    const byToken = await fetch(`${base}/api/v1/merchant`, { headers: { authorization: `Bearer ${accessToken}` } });
    expect(byToken.status).toBe(200);
    expect(((await byToken.json()) as { id: string }).id).toBe(merchantId);

    const [header, payload, signature] = accessToken.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { exp: number };
    const forged = Buffer.from(JSON.stringify({ ...claims, exp: claims.exp + 86_400 })).toString('base64url');
    const tampered = await fetch(`${base}/api/v1/merchant`, { headers: { authorization: `Bearer ${header}.${forged}.${signature}` } });
    expect(tampered.status).toBe(401);
    expect(((await tampered.json()) as { error: string }).error).toBe('UNAUTHORIZED');
  });

  it('runs a PAYIN to COMPLETED through HTTP only, with the worker role doing the steps', async () => {
    const { apiKey, apiSecret } = await demo();
    const api = async (method: string, url: string, body?: unknown) => {
      const response = await fetch(`${base}/api/v1${url}`, {
        method,
        headers: { 'x-api-key': apiKey, 'x-api-secret': apiSecret, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const receiver = await api('POST', '/receivers', {
      type: 'PF',
      document: randomCpf(),
      name: 'Cliente E2E',
      email: 'e2e@example.com',
      walletAddress: '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T',
      // The real clock may be in the night window (20:00–06:00 São Paulo).
      limits: { nightTransactionsEnabled: true },
    });
    expect(receiver.status).toBe(201);
    expect((await api('POST', `/sandbox/receivers/${receiver.body.id}/kyc`, { decision: 'APPROVE' })).status).toBe(200);
    const payin = await api('POST', '/payin', { receiverId: receiver.body.id, amountBrl: 99.9 });
    expect(payin.status).toBe(201);
    expect(payin.body.pixPaymentCode).toMatch(/^000201/);
    expect((await api('POST', `/sandbox/orders/${payin.body.id}/pix-payment`, {})).status).toBe(200);
    const completed = await waitFor(async () => {
      const order = await api('GET', `/orders/${payin.body.id}`);
      return order.body.status === 'COMPLETED' ? order.body : undefined;
    }, 15_000);
    expect((completed.transactions as Array<{ type: string; txHash: string }>).find((tx) => tx.type === 'CHAIN_TRANSFER')?.txHash).toBeTruthy();
  }, 30_000);

  it('serves OpenAPI 3.1 with version 1.0.0 and the reference page', async () => {
    const doc = (await (await fetch(`${base}/api/v1/openapi.json`)).json()) as { openapi: string; info: { version: string } };
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(doc.info.version).toBe('1.0.0');
    expect((await fetch(`${base}/docs/`)).status).toBe(200);
  });

  it('keeps the embedded database locked against a second process', async () => {
    const cli = await runTsToEnd('src/cli/admin.ts', ['create-merchant', '--name', 'Second'], { DATA_DIR: dataDir });
    expect(cli.code).not.toBe(0);
    expect(cli.stderr).toContain('in use by process');
  });

  it('shuts down cleanly on SIGTERM and keeps its data and keys across a restart', { timeout: 90_000 }, async () => {
    expect(await service.stop()).toBe(0);
    expect(service.output()).toContain('shutdown complete');
    const before = await demo();
    await start();
    expect(await demo()).toEqual(before);
    const response = await fetch(`${base}/api/v1/merchant`, { headers: { 'x-api-key': before.apiKey, 'x-api-secret': before.apiSecret } });
    expect(response.status).toBe(200);
  });
});
