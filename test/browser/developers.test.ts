/**
 * The Developers pages (issue 28): API keys and webhooks, driven in the browser against a real
 * `node src/main.ts`. The API key made in the page is used like curl from the test (x-api-key /
 * x-api-secret), then revoked in the page; its secret must leave the page with the modal. A
 * webhook endpoint registered in the page points at a node:http receiver on loopback (sandbox
 * allows http:// to loopback, WEBHOOK_ALLOW_HTTP's default outside production), which verifies
 * each signature with the secret the page showed; the receiver then fails an event for good
 * (WEBHOOK_RETRY_SCHEDULE=1: one retry) and "recover since" brings it back.
 */
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations, screenshot, useBrowser } from '../helpers/browser.ts';
import { addSessionCookie, type ApiSession, type DashboardServer, signedInOwner, startDashboardServer } from '../helpers/dashboard-server.ts';

interface Received {
  headers: Record<string, string | string[] | undefined>;
  body: string;
  status: number;
  signatureValid: boolean;
}

/** A webhook receiver on 127.0.0.1: answers `answer` (200 or 500) and checks the signature once it knows the secret. */
function startReceiver() {
  const received: Received[] = [];
  const state = { answer: 200, secret: '' };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const id = String(request.headers['webhook-id']);
      const timestamp = String(request.headers['webhook-timestamp']);
      const key = Buffer.from(state.secret.replace(/^whsec_/, ''), 'base64');
      const expected = `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
      const signatureValid = String(request.headers['webhook-signature']).split(' ').includes(expected);
      received.push({ headers: request.headers, body, status: state.answer, signatureValid });
      response.writeHead(state.answer, { 'content-type': 'text/plain' }).end(state.answer === 200 ? 'received ok' : 'receiver down');
    });
  });
  return {
    received,
    state,
    listen: () => new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`))),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Now minus `minutes`, as a São Paulo `<input type="datetime-local">` value (the browser context's zone). */
function saoPauloInput(minutes: number): string {
  return new Date(Date.now() - minutes * 60_000).toLocaleString('sv-SE', { timeZone: 'America/Sao_Paulo' }).replace(' ', 'T').slice(0, 16);
}

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('developers pages', { timeout: 180_000 }, () => {
  let server: DashboardServer;
  let ownerSession: ApiSession;
  const receiver = startReceiver();
  let receiverUrl: string;
  const browser = useBrowser({ baseURL: () => server.baseUrl });

  beforeAll(async () => {
    receiverUrl = await receiver.listen();
    server = await startDashboardServer({ WEBHOOK_RETRY_SCHEDULE: '1', WEBHOOK_WORKER_INTERVAL_MS: '200' });
    ({ session: ownerSession } = await signedInOwner(server));
  }, 240_000);
  afterAll(async () => {
    await receiver.close();
    if (server) expect(await server.stop()).toBe(0);
  });

  const signIn = async () => {
    await addSessionCookie(browser.context, server.baseUrl, ownerSession);
  };
  const ordersWith = (apiKey: string, apiSecret: string) => fetch(`${server.baseUrl}/api/v1/orders`, { headers: { 'x-api-key': apiKey, 'x-api-secret': apiSecret } });

  it('creates an API key whose secret is shown once, uses it, and revokes it', async () => {
    const { page } = browser;
    await signIn();
    await page.goto('/app/developers/api-keys');
    await page.getByRole('heading', { name: 'Chaves de API', level: 1 }).waitFor();
    await expectNoSeriousA11yViolations(page);

    await page.getByLabel('Nome').fill('ci server');
    await page.getByRole('button', { name: 'Criar chave' }).click();
    const dialog = page.getByRole('dialog', { name: 'Sua nova chave de API' });
    await dialog.waitFor();
    const apiSecret = (await dialog.getByTestId('shown-secret').textContent())!.trim();
    const apiKey = /mk_[0-9a-f]{32}/.exec((await dialog.textContent()) ?? '')![0];
    expect(apiSecret.length).toBeGreaterThan(20);
    await expectNoSeriousA11yViolations(page);

    // Used like curl: the key the page made is a working key.
    expect((await ordersWith(apiKey, apiSecret)).status).toBe(200);

    await dialog.getByRole('button', { name: 'Já guardei, fechar' }).click();
    await dialog.waitFor({ state: 'detached' });
    const row = page.getByRole('row').filter({ hasText: apiKey });
    await expect.poll(() => row.textContent()).toContain('ci server');
    expect(await page.content()).not.toContain(apiSecret);
    await page.reload();
    await row.waitFor();
    expect(await page.content()).not.toContain(apiSecret);

    await row.getByRole('button', { name: 'Revogar ci server' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revogar a chave?' });
    await confirm.getByRole('button', { name: 'Revogar' }).click();
    await row.getByText(/Revogada em/).waitFor();
    expect((await ordersWith(apiKey, apiSecret)).status).toBe(401);
    await expectNoSeriousA11yViolations(page);
  });

  it('registers a webhook endpoint, sends a test, and recovers failed deliveries', async () => {
    const { page } = browser;
    await signIn();
    await page.goto('/app/developers/webhooks');
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
    await page.getByRole('checkbox', { name: 'webhook.test' }).waitFor();
    await expectNoSeriousA11yViolations(page);

    await page.getByLabel('URL').fill(receiverUrl);
    await page.getByLabel('Descrição').fill('loopback receiver');
    await page.getByRole('button', { name: 'Cadastrar endpoint' }).click();
    const dialog = page.getByRole('dialog', { name: 'Segredo de assinatura do endpoint' });
    await dialog.waitFor();
    receiver.state.secret = (await dialog.getByTestId('shown-secret').textContent())!.trim();
    expect(receiver.state.secret).toMatch(/^whsec_/);
    await dialog.getByRole('button', { name: 'Já guardei, fechar' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await page.content()).not.toContain(receiver.state.secret);

    await page.getByRole('link', { name: receiverUrl }).click();
    await page.getByRole('heading', { name: `Endpoint ${receiverUrl}` }).waitFor();
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('button', { name: 'Enviar evento de teste' }).click();
    await page.getByText('Evento de teste enviado para a fila.').waitFor();
    const first = await until('the test event at the receiver', () => receiver.received[0]);
    expect(first.signatureValid).toBe(true);
    expect(JSON.parse(first.body)).toMatchObject({ event: 'webhook.test', deliveryId: first.headers['webhook-id'] });

    // The log shows it delivered with the receiver's 200, and its page the request and the answer.
    await page.getByRole('link', { name: 'Registro de entregas' }).first().click();
    await page.getByRole('heading', { name: 'Registro de entregas', level: 1 }).waitFor();
    const delivered = page.locator(`tr[data-delivery-id="${String(first.headers['webhook-id'])}"]`);
    await delivered.getByText('Entregue').waitFor();
    await delivered.getByText('HTTP 200').waitFor();
    await expectNoSeriousA11yViolations(page);
    await delivered.getByRole('link', { name: /Abrir a entrega/ }).click();
    await page.getByRole('heading', { name: 'Entrega webhook.test' }).waitFor();
    await expect.poll(() => page.getByTestId('delivery-payload').textContent()).toContain(String(first.headers['webhook-id']));
    const attempt = page.locator('tr[data-attempt="1"]');
    await attempt.getByText('200 (sucesso)').waitFor();
    await attempt.getByText('received ok').waitFor();
    await expectNoSeriousA11yViolations(page);

    // The receiver goes down: the next event fails its attempt and its one retry, and ends FAILED.
    receiver.state.answer = 500;
    await page.goto('/app/developers/webhooks');
    await page.getByRole('link', { name: receiverUrl }).click();
    await page.getByRole('button', { name: 'Enviar evento de teste' }).click();
    await page.getByText('Evento de teste enviado para a fila.').waitFor();
    await page.getByRole('table', { name: 'Entregas recentes' }).getByText('Falhou').waitFor({ timeout: 30_000 });
    const failures = receiver.received.filter((request) => request.status === 500);
    expect(failures).toHaveLength(2);
    const failedId = String(failures[0]!.headers['webhook-id']);

    // Back up: "recover since" a few minutes ago queues it again, and it is delivered, same deliveryId.
    receiver.state.answer = 200;
    await page.getByLabel('Desde (horário local)').fill(saoPauloInput(5));
    await page.getByRole('button', { name: 'Reenviar as falhas' }).click();
    await page.getByText('1 entrega colocada na fila de novo.').waitFor();
    await until('the recovered delivery at the receiver', () => receiver.received.find((request) => request.status === 200 && request.headers['webhook-id'] === failedId));

    await page.goto('/app/developers/webhooks/deliveries');
    const recovered = page.locator(`tr[data-delivery-id="${failedId}"]`);
    await recovered.getByText('Entregue').waitFor({ timeout: 15_000 });
    await expect.poll(() => recovered.textContent()).toContain('HTTP 200');
    expect(await page.getByRole('table', { name: /Entregas de webhook/ }).getByText('Falhou').count()).toBe(0);
    await screenshot(page, 'webhook-log');
    await expectNoSeriousA11yViolations(page);

    await recovered.getByRole('link', { name: /Abrir a entrega/ }).click();
    await page.locator('tr[data-attempt="3"]').getByText('200 (sucesso)').waitFor();
    await page.locator('tr[data-attempt="1"]').getByText('500 (falha)').waitFor();
    await page.locator('tr[data-attempt="1"]').getByText('receiver down').waitFor();
  });

  it('shows the event catalog with example payloads', async () => {
    const { page } = browser;
    await signIn();
    await page.goto('/app/developers/events');
    await page.getByRole('heading', { name: 'Catálogo de eventos', level: 1 }).waitFor();
    const test = page.getByRole('region', { name: 'webhook.test' });
    await expect.poll(() => test.textContent()).toContain('"event": "webhook.test"');
    await expectNoSeriousA11yViolations(page);
  });
});
