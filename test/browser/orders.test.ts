/**
 * The orders pages in a browser, on the service as `npm start` runs it (sandbox PSP and chain):
 * a receiver and a webhook endpoint made through the API with the demo key, then a PAYIN created
 * with the form, paid with the order page's sandbox action, its timeline followed to COMPLETED
 * (statuses, PIX and chain movements, the merchant's own ledger entries, the webhook deliveries), the CSV export of
 * the list parsed, and the list's filters narrowing it. Axe on the list and the order page, and
 * (issue 42) on an order in progress with its sandbox panel, while its data loads and once loaded,
 * in both languages, with the fee and the counts written each language's way; last, a MED claim
 * on the order shown in its timeline by the claim's status, in both languages.
 */
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations, screenshot, useBrowser } from '../helpers/browser.ts';
import { addSessionCookie, type ApiSession, type DashboardServer, signedInOwner, startDashboardServer } from '../helpers/dashboard-server.ts';
import { randomCpf } from '../helpers/documents.ts';

const WALLET = '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T';
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

/** A webhook receiver on loopback answering 200 to everything (the service's default allows loopback http outside production). */
async function webhookSink(): Promise<{ url: string; server: Server; received: string[] }> {
  const received: string[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push(body);
      response.writeHead(200).end('ok');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks`, server, received };
}

/** RFC 4180 lines to cells (the export quotes fields with commas, quotes or line breaks). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted && char === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (char === '"') {
      quoted = !quoted;
    } else if (quoted) {
      cell += char;
    } else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else {
      cell += char;
    }
  }
  if (cell !== '' || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

/** Today in São Paulo, yyyy-mm-dd (what a date input takes). */
const saoPauloToday = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());

describe('orders pages', { timeout: 120_000 }, () => {
  let server: DashboardServer;
  let ownerSession: ApiSession;
  let sink: Awaited<ReturnType<typeof webhookSink>>;
  let receiver: { id: string; name: string };
  let orderId = '';
  const externalId = `browser-${Date.now()}`;
  const browser = useBrowser({ baseURL: () => server.baseUrl });

  const apiCall = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${server.baseUrl}/api/v1${path}`, {
      method,
      headers: { 'x-api-key': server.apiKey, 'x-api-secret': server.apiSecret, ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return JSON.parse(text) as Record<string, unknown>;
  };

  beforeAll(async () => {
    sink = await webhookSink();
    server = await startDashboardServer();
    ({ session: ownerSession } = await signedInOwner(server));
    await apiCall('POST', '/webhook/endpoints', { url: sink.url, description: 'browser test' });
    // Night orders allowed: the test may run in the São Paulo night window (NIGHT_START–NIGHT_END).
    const created = await apiCall('POST', '/receivers', {
      type: 'PF',
      document: randomCpf(),
      name: 'Joana Navegador',
      email: 'joana@example.com',
      walletAddress: WALLET,
      limits: { nightTransactionsEnabled: true },
    });
    const approved = await apiCall('POST', `/sandbox/receivers/${String(created.id)}/kyc`, { decision: 'APPROVE' });
    expect(approved.status).toBe('ACTIVE');
    receiver = { id: String(created.id), name: String(created.name) };
  }, 180_000);

  afterAll(async () => {
    sink?.server.close();
    if (server) expect(await server.stop()).toBe(0);
  });

  const signIn = async () => {
    await addSessionCookie(browser.context, server.baseUrl, ownerSession);
  };

  it('creates a PAYIN with the form, pays it with the sandbox action and follows its timeline to COMPLETED', async () => {
    await signIn();
    const { page } = browser;
    await page.goto('/app/orders');
    await page.getByRole('heading', { level: 1, name: 'Pedidos' }).waitFor();
    await page.getByRole('link', { name: 'Novo PAYIN' }).click();
    await page.getByRole('heading', { level: 1, name: 'Novo PAYIN' }).waitFor();
    await expect.poll(() => page.getByLabel('Recebedor').locator('option').count()).toBeGreaterThan(1);
    await page.getByLabel('Recebedor').selectOption(receiver.id);
    await page.getByLabel('Valor (R$)').fill('150,00');
    await page.getByLabel('Referência externa (opcional)').fill(externalId);
    await page.getByRole('button', { name: 'Criar PAYIN' }).click();

    await page.waitForURL(new RegExp(`/app/orders/${UUID}$`));
    orderId = new URL(page.url()).pathname.split('/').pop()!;
    await page.getByRole('heading', { level: 1, name: `Pedido ${externalId}` }).waitFor();
    // The PIX copy-and-paste code of a PAYIN awaiting payment: a BR Code (EMV, starts 000201).
    await page.getByRole('heading', { name: 'PIX copia e cola' }).waitFor();
    expect(await page.getByTestId('pix-code').textContent()).toMatch(/^000201/);
    const created = await apiCall('GET', `/orders/${orderId}`);
    expect(created).toMatchObject({ status: 'AWAITING_PAYMENT', externalId, receiverId: receiver.id, amountBrl: 150 });
    expect(await page.getByTestId('pix-code').textContent()).toBe(created.pixPaymentCode);
    // Fee percentages arrive as fractions (0.005 is 0.5 %) and show in per cent.
    const fees = created as unknown as { feePercentage: number; platformFeePercentage: number; merchantFeePercentage: number };
    expect(fees.feePercentage).toBeCloseTo(fees.platformFeePercentage + fees.merchantFeePercentage, 10);
    expect(fees.feePercentage).toBeLessThan(0.2);
    const perCent = new Intl.NumberFormat('pt-BR', { style: 'percent', maximumFractionDigits: 6 }).format(fees.feePercentage);
    expect(perCent).toMatch(/^\d+(,\d+)?%$/);
    await page.getByText(perCent, { exact: true }).first().waitFor();

    // The sandbox panel of an order in progress, its outline button included (issue 42: 4.26:1 before).
    await page.getByRole('button', { name: 'Falhar agora' }).waitFor();
    await expectNoSeriousA11yViolations(page);

    await page.getByRole('button', { name: 'Pagar o PIX' }).click();
    // The page refreshes by itself until the order is final: no reload here.
    const summary = page.locator('section', { has: page.getByRole('heading', { name: 'Resumo' }) });
    await summary.getByText('Concluído', { exact: true }).waitFor({ timeout: 30_000 });
    await expect.poll(() => page.getByRole('heading', { name: 'PIX copia e cola' }).count()).toBe(0);

    const timeline = page.locator('section', { has: page.getByRole('heading', { name: 'Linha do tempo' }) });
    const rows = timeline.locator('tbody tr[data-kind]');
    await timeline.getByText('evento order.completed').waitFor();
    for (const text of ['criado nesta situação', 'evento order.payment_received', 'evento order.completed']) await timeline.getByText(text).waitFor();
    await expect.poll(() => rows.filter({ hasText: 'PIX_IN' }).count()).toBe(1);
    await expect.poll(() => rows.filter({ hasText: 'CHAIN_TRANSFER' }).count()).toBe(1);
    // The merchant's own ledger accounts only (decision 0041): the completion posts its fee, when
    // it has one; a PIX received posts to none of them, so it is no entry of the merchant's.
    if (fees.merchantFeePercentage > 0) await timeline.getByText('Lançamentos de PAYIN_COMPLETED').waitFor();
    else expect(await timeline.getByText('Lançamentos de PAYIN_COMPLETED').count()).toBe(0);
    expect(await timeline.getByText('Lançamentos de PAYIN_PIX_RECEIVED').count()).toBe(0);
    expect(await timeline.textContent()).not.toMatch(/pix_cash|token_treasury|fx_conversion/);
    // The deliveries to the endpoint made above: they succeed, one attempt each, code 200.
    // Statuses in the page's language, the count with its noun in the singular (issue 42).
    await timeline.getByText(/order\.completed: Entregue, 1 tentativa, último código 200/).waitFor({ timeout: 30_000 });
    expect(await rows.filter({ hasText: 'Entregue, ' }).count()).toBeGreaterThanOrEqual(2);
    expect(await rows.filter({ hasText: /\b(SUCCEEDED|CONFIRMED|PENDING)\b/ }).count()).toBe(0);
    await expect.poll(() => rows.filter({ hasText: 'PIX_IN' }).getByText('Confirmada', { exact: true }).count()).toBe(1);
    expect(sink.received.some((body) => body.includes(orderId) && body.includes('order.completed'))).toBe(true);
    // What the page shows is the API's own timeline.
    const api = await apiCall('GET', `/orders/${orderId}/timeline`);
    expect(await rows.count()).toBe((api.entries as unknown[]).length);
    // The sandbox actions are gone once nothing is left to drive.
    await expect.poll(() => page.getByRole('heading', { name: 'Sandbox' }).count()).toBe(0);

    await screenshot(page, 'order-timeline');
    await expectNoSeriousA11yViolations(page);
  });

  it('exports the list as CSV and narrows it with the filters kept in the address', async () => {
    expect(orderId, 'the first test created the order').not.toBe('');
    await signIn();
    const { page } = browser;
    await page.goto('/app/orders');
    const table = page.getByRole('table', { name: /Pedidos, do mais recente/ });
    await table.getByRole('link', { name: externalId }).waitFor();
    await expectNoSeriousA11yViolations(page);

    // The export: a plain download of GET /orders/export with the session cookie.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Exportar CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^orders-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = parseCsv(await readFile((await download.path())!, 'utf8'));
    expect(csv[0]).toEqual(['id', 'externalId', 'type', 'status', 'receiverId', 'chain', 'token', 'amountBrl', 'amountToken', 'exchangeRate', 'netAmountBrl', 'platformFeeBrl', 'merchantFeeBrl', 'createdAt', 'completedAt', 'failureReason', 'markupBrl']);
    const line = csv.find((cells) => cells[0] === orderId);
    expect(line).toBeDefined();
    expect(line!.slice(1, 5)).toEqual([externalId, 'PAYIN', 'COMPLETED', receiver.id]);
    expect(line![7]).toBe('150');

    // Filters: applied by the form, kept in the address, narrowing the table and the export.
    const today = saoPauloToday();
    await page.getByLabel('Referência externa').fill(externalId);
    await page.getByLabel('Recebedor').selectOption(receiver.id);
    await page.getByLabel('Criado a partir de').fill(today);
    await page.getByLabel('Criado até').fill(today);
    await page.getByLabel('Valor mínimo (R$)').fill('100');
    await page.getByLabel('Valor máximo (R$)').fill('150,00');
    await page.getByRole('button', { name: 'Filtrar' }).click();
    await page.waitForURL(/externalId=/);
    // The router writes a numeric-looking string JSON-quoted ("100" as %22100%22), so it stays text.
    const search = [...new URL(page.url()).searchParams].map(([name, value]) => [name, value.replace(/^"(.*)"$/, '$1')]);
    expect(Object.fromEntries(search)).toEqual({ externalId, receiverId: receiver.id, createdFrom: today, createdTo: today, amountBrlMin: '100', amountBrlMax: '150.00' });
    await page.getByText('1 pedido', { exact: true }).waitFor();
    await expect.poll(() => table.locator('tbody tr').count()).toBe(1);
    const href = await page.getByRole('link', { name: 'Exportar CSV' }).getAttribute('href');
    const filtered = await page.evaluate(async (url) => (await fetch(url!)).text(), href);
    expect(parseCsv(filtered).slice(1).map((cells) => cells[0])).toEqual([orderId]);

    // A reload keeps them (the address holds them); a status it does not have empties the list.
    await page.reload();
    await page.getByText('1 pedido', { exact: true }).waitFor();
    await page.getByLabel('Situação').selectOption('FAILED');
    await page.getByRole('button', { name: 'Filtrar' }).click();
    await page.waitForURL(/status=FAILED/);
    await page.getByText('Nenhum pedido com estes filtros.').waitFor();
    await page.getByLabel('Situação').selectOption('COMPLETED');
    await page.getByLabel('Valor mínimo (R$)').fill('150,01');
    await page.getByLabel('Valor máximo (R$)').fill('');
    await page.getByRole('button', { name: 'Filtrar' }).click();
    await page.waitForURL(/amountBrlMin=(%22)?150\.01/);
    await page.getByText('Nenhum pedido com estes filtros.').waitFor();

    await page.getByRole('button', { name: 'Limpar filtros' }).click();
    await page.waitForURL((url) => url.search === '');
    await table.getByRole('link', { name: externalId }).waitFor();
  });

  it('an order in progress passes axe while it loads and with its sandbox panel, in both languages', async () => {
    await signIn();
    const { page } = browser;
    const created = await apiCall('POST', '/payin', { receiverId: receiver.id, amountBrl: 200 }, { 'idempotency-key': `browser-axe-${Date.now()}` });
    const id = String(created.id);
    expect(created.status).toBe('AWAITING_PAYMENT');

    // The order and its timeline are held until released, so each loading state stays on screen.
    const held = (pattern: RegExp) => {
      let release = () => {};
      const gate = new Promise<void>((resolve) => (release = resolve));
      void page.route(pattern, async (route: Route) => {
        await gate;
        await route.continue();
      });
      return release;
    };
    const releaseOrder = held(new RegExp(`/api/v1/orders/${id}$`));
    const releaseTimeline = held(new RegExp(`/api/v1/orders/${id}/timeline$`));
    await page.goto(`/app/orders/${id}`);
    await page.getByRole('status').first().waitFor();
    await expectNoSeriousA11yViolations(page);
    // What a screen reader announces: the words, in the status region (not a label on the spinner).
    const loading = page.getByRole('status').filter({ hasText: 'Carregando…' });
    expect(await loading.count()).toBe(1);

    releaseOrder();
    await page.getByRole('heading', { name: 'Sandbox' }).waitFor();
    const timeline = page.locator('section', { has: page.getByRole('heading', { name: 'Linha do tempo' }) });
    await timeline.getByRole('status').waitFor();
    await expectNoSeriousA11yViolations(page);
    expect(await timeline.getByRole('status').filter({ hasText: 'Carregando…' }).count()).toBe(1);

    releaseTimeline();
    await timeline.locator('tbody tr[data-kind]').first().waitFor();
    await expect.poll(() => loading.count()).toBe(0);
    const amounts = page.locator('section', { has: page.getByRole('heading', { name: 'Valores e tarifas' }) });
    const fee = (created as unknown as { feePercentage: number }).feePercentage;
    const perCent = (language: string) => new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 6 }).format(fee);
    await amounts.getByText(perCent('pt-BR'), { exact: true }).first().waitFor();
    await expectNoSeriousA11yViolations(page);

    // English: the same page, the fee in English digits, every status shown in English words.
    await page.getByLabel('Idioma').selectOption('en');
    await page.getByRole('heading', { name: 'Amounts and fees' }).waitFor();
    await page.getByRole('button', { name: 'Fail now' }).waitFor();
    await page.locator('section', { has: page.getByRole('heading', { name: 'Amounts and fees' }) }).getByText(perCent('en'), { exact: true }).first().waitFor();
    await page.getByText('Awaiting payment', { exact: true }).first().waitFor();
    await expectNoSeriousA11yViolations(page);
    await screenshot(page, 'order-in-progress-en');
  });

  // Issue 42: the claim's event made the timeline answer 500 and the page spin; last, as the claim changes the order's story.
  it("shows a MED claim in the order's timeline by the claim's own status, in pt-BR and English", async () => {
    expect(orderId, 'the first test created the order').not.toBe('');
    const dispute = await apiCall('POST', `/sandbox/orders/${orderId}/med-claim`, {});
    await signIn();
    const { page } = browser;
    await page.goto(`/app/orders/${orderId}`);
    // The test before left the dashboard in English (the choice is kept in localStorage).
    await page.getByLabel(/^(Idioma|Language)$/).selectOption('pt-BR');
    const timeline = page.locator('section', { has: page.getByRole('heading', { name: 'Linha do tempo' }) });
    const claims = timeline.locator('tbody tr[data-kind="DISPUTE"]');
    await claims.first().waitFor();
    expect(await claims.count()).toBe(1);
    for (const text of ['Contestação MED', 'Aberta', 'contestação aberta pelo PSP do pagador', 'defesa até']) expect(await claims.first().textContent()).toContain(text);
    // The order's own status stays COMPLETED: a claim is no order status.
    const summary = page.locator('section', { has: page.getByRole('heading', { name: 'Resumo' }) });
    await summary.getByText('Concluído', { exact: true }).waitFor();
    await expectNoSeriousA11yViolations(page);

    const decided = await apiCall('POST', `/sandbox/disputes/${String(dispute.id)}/decision`, { outcome: 'ACCEPTED' });
    expect(decided).toMatchObject({ status: 'ACCEPTED', outcome: 'CHARGED_BACK' });
    await page.getByLabel('Idioma').selectOption('en');
    await page.reload();
    const english = page.locator('section', { has: page.getByRole('heading', { name: 'Timeline' }) });
    const ended = english.locator('tbody tr[data-kind="DISPUTE"]', { hasText: 'Accepted' });
    await ended.first().waitFor();
    expect(await ended.last().textContent()).toContain('PIX returned and charged to the merchant');
    await english.locator('tbody tr[data-kind="DISPUTE"]', { hasText: "claim opened by the payer's PSP" }).waitFor();
    const api = await apiCall('GET', `/orders/${orderId}/timeline`);
    expect(await english.locator('tbody tr[data-kind="DISPUTE"]').count()).toBe((api.entries as Array<{ kind: string }>).filter((e) => e.kind === 'DISPUTE').length);
    await screenshot(page, 'order-timeline-claim');
    await expectNoSeriousA11yViolations(page);
  });
});
