/**
 * Payout batches in the merchant dashboard (issue 43 item 3), on the service as `npm start` runs it
 * (sandbox PSP and chain). The demo owner sets the approval threshold on the batches page, uploads
 * a CSV whose line is in a broken format (400: the line is listed, nothing stored), then one with a
 * receiver that is not the merchant's (stored VALIDATED: the report shows the line's refusal; the
 * owner discards it), then the fixed file: every line OK, confirmed, and, above the threshold, it
 * waits for a second person. The owner, its creator, gets no approve button (and the API refuses
 * it: 403 SECOND_PERSON_REQUIRED); an ADMIN approves it in the page and sees the deposit address
 * with its QR code. Then pause, resume and cancel of the unpaid rest; a batch below the threshold
 * funded through the sandbox, its lines' orders linked to their pages, and the report's CSV. Axe on
 * every new page in pt-BR and English, also while their data loads (the requests held by the test).
 */
import type { Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations, screenshot, useBrowser } from '../helpers/browser.ts';
import { addSessionCookie, type ApiSession, type DashboardServer, demoKeyApi, enrolTotp, invitePerson, signedInOwner, signInByApi, startDashboardServer, switchSession } from '../helpers/dashboard-server.ts';
import { randomCpf } from '../helpers/documents.ts';
import { decodeDrawnQr } from '../helpers/qr.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const WALLET = '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T';
/** Intl writes "R$\u00a0150,00": the non-breaking space compared as a plain one. */
const plain = (text: string | null) => (text ?? '').replace(/\u00a0/g, ' ');
const csvFile = (text: string) => ({ name: 'lote.csv', mimeType: 'text/csv', buffer: Buffer.from(text) });

describe('payout batches pages', { timeout: 180_000 }, () => {
  let server: DashboardServer;
  let ownerSession: ApiSession;
  let adminSession: ApiSession;
  const receivers: string[] = [];
  /** The batch confirmed above the threshold: approved by the ADMIN, then paused and cancelled. */
  let approvalBatchId = '';
  const browser = useBrowser({ baseURL: () => server.baseUrl });
  const api = demoKeyApi(() => server);

  /** A merchant route called with a person's session, as the dashboard calls it. */
  const asPerson = async (session: ApiSession, method: string, path: string) => {
    const response = await fetch(`${server.baseUrl}/api/v1${path}`, { method, headers: { cookie: session.cookie, 'x-csrf-token': session.csrfToken } });
    return { status: response.status, body: (await response.json()) as Json };
  };
  const chooseLanguage = async (page: Page, language: 'pt-BR' | 'en') => {
    await page.getByLabel(/^(Idioma|Language)$/).selectOption(language);
  };

  beforeAll(async () => {
    server = await startDashboardServer({ LOG_LEVEL: 'info' }); // info: the ADMIN's invitation link comes through the log email port
    ({ session: ownerSession } = await signedInOwner(server));
    const admin = await invitePerson(server, ownerSession, `admin-${Date.now()}@example.com`, 'ADMIN');
    adminSession = await signInByApi(server.baseUrl, admin, await enrolTotp(server.baseUrl, admin));
    // Night orders allowed: the test may run in the São Paulo night window.
    for (const name of ['Lia Lote', 'Caio Lote']) {
      const receiver = await api('POST', '/receivers', { type: 'PF', document: randomCpf(), name, email: 'lote@example.com', walletAddress: WALLET, limits: { nightTransactionsEnabled: true } });
      await api('POST', `/sandbox/receivers/${receiver.id}/kyc`, { decision: 'APPROVE' });
      receivers.push(String(receiver.id));
    }
  }, 180_000);

  afterAll(async () => {
    if (server) expect(await server.stop()).toBe(0);
  });

  it('the owner sets the threshold, sees a broken line and a refused line reported before anything moves, fixes the file and confirms it; the creator cannot approve', async () => {
    await addSessionCookie(browser.context, server.baseUrl, ownerSession);
    const { page } = browser;
    await page.goto('/app/payout-batches');
    await page.getByRole('heading', { level: 1, name: 'Lotes de pagamento' }).waitFor();
    await page.getByText('Nenhum lote de pagamento ainda.').waitFor();
    const threshold = page.getByRole('region', { name: 'Limite de aprovação' });
    await threshold.getByText('Sem limite: nenhum lote precisa de aprovação.').waitFor();
    await threshold.getByLabel('Limite (BRL)').fill('20.00');
    await threshold.getByRole('button', { name: 'Salvar o limite' }).click();
    await threshold.getByText('Limite salvo.').waitFor();
    await threshold.getByText('Lotes com total acima de R$ 20,00 precisam da aprovação de uma segunda pessoa.').waitFor();
    expect(await api('GET', '/payout-batch-settings')).toMatchObject({ approvalThresholdBrl: '20.00' });
    await expectNoSeriousA11yViolations(page);

    await page.getByRole('link', { name: 'Novo lote' }).click();
    await page.getByRole('heading', { level: 1, name: 'Novo lote de pagamento' }).waitFor();
    expect(await page.getByTestId('batch-template').textContent()).toContain('receiverId,amountCrypto,token');
    // No file: the form says so and sends nothing.
    await page.getByRole('button', { name: 'Conferir as linhas' }).click();
    await page.getByText('Escolha um arquivo CSV.').waitFor();
    await expectNoSeriousA11yViolations(page);

    // A line in a broken format: 400, the line named, nothing stored.
    browser.allowProblems(/status of 400/);
    await page.getByLabel('Arquivo CSV').setInputFiles(csvFile(`receiverId,amountCrypto,token\n${receivers[0]},3,USDC\n${receivers[1]},três,USDC\n`));
    await page.getByRole('button', { name: 'Conferir as linhas' }).click();
    const broken = page.getByTestId('batch-broken');
    await broken.getByText('O arquivo não foi aceito: nada foi guardado. Corrija as linhas abaixo e envie de novo.').waitFor();
    await broken.getByRole('table', { name: 'Problemas de formato, por linha' }).getByRole('rowheader', { name: 'line 3.amountCrypto' }).waitFor();
    expect((await api('GET', '/payout-batches')).total).toBe(0);
    await expectNoSeriousA11yViolations(page);

    // A receiver that is not the merchant's: the batch is stored VALIDATED with that line's refusal.
    const stranger = '00000000-0000-7000-8000-00000000abcd';
    await page.getByLabel('Arquivo CSV').setInputFiles(csvFile(`receiverId,amountCrypto,token,externalId\n${receivers[0]},3,USDC,lote-a-1\n${stranger},3,USDC,lote-a-2\n`));
    await page.getByRole('button', { name: 'Conferir as linhas' }).click();
    await page.waitForURL(/\/app\/payout-batches\/[0-9a-f-]{36}$/);
    const report = page.getByRole('region', { name: 'Resultado da conferência' });
    await report.getByText('Prontas para pagar: 1 de 2. Com erro: 1.').waitFor();
    const bad = report.locator('tr[data-line="2"]');
    await bad.getByText('Com erro', { exact: true }).waitFor();
    expect(await bad.textContent()).toMatch(/NOT_FOUND|receiver/i);
    await report.locator('tr[data-line="1"]').getByText('OK', { exact: true }).waitFor();
    await page.getByRole('region', { name: 'O lote' }).getByText('Conferido', { exact: true }).waitFor();
    await expectNoSeriousA11yViolations(page);
    await screenshot(page, 'batch-report-with-error');
    // Discarded: its lines cancelled, nothing moved.
    const actions = page.getByRole('region', { name: 'Ações' });
    await actions.getByRole('button', { name: 'Descartar o lote' }).click();
    await actions.getByRole('group', { name: 'Cancelar de verdade? Isto não pode ser desfeito.' }).getByRole('button', { name: 'Descartar o lote' }).click();
    await page.getByRole('region', { name: 'O lote' }).getByText('Cancelado', { exact: true }).waitFor();

    // The fixed file: every line OK; confirmed, it is above R$ 20,00 and waits for a second person.
    await page.goto('/app/payout-batches/new');
    await page.getByLabel('Arquivo CSV').setInputFiles(csvFile(`receiverId,amountCrypto,token,externalId\n${receivers[0]},3,USDC,lote-b-1\n${receivers[1]},4,USDC,lote-b-2\n`));
    await page.getByRole('button', { name: 'Conferir as linhas' }).click();
    await page.waitForURL(/\/app\/payout-batches\/[0-9a-f-]{36}$/);
    approvalBatchId = page.url().split('/').at(-1)!;
    await page.getByText('Prontas para pagar: 2 de 2. Com erro: 0.').waitFor();
    await page.getByText('Todas as linhas estão OK.').waitFor();
    await page.getByRole('button', { name: 'Confirmar o lote' }).click();
    const summary = page.getByRole('region', { name: 'O lote' });
    await summary.getByText('Aguardando aprovação', { exact: true }).waitFor();
    await page.getByTestId('approval-refused').getByText('Você criou este lote: a aprovação é de outra pessoa (proprietário ou administrador).').waitFor();
    expect(await page.getByRole('button', { name: 'Aprovar o lote' }).count()).toBe(0);
    expect(await page.getByTestId('batch-deposit-address').count()).toBe(0);
    await expectNoSeriousA11yViolations(page);
    // What the button would have met: the API's own refusal of the creator.
    const refused = await asPerson(ownerSession, 'POST', `/payout-batches/${approvalBatchId}/approve`);
    expect(refused).toMatchObject({ status: 403, body: { details: { reason: 'SECOND_PERSON_REQUIRED' } } });
    expect((await api('GET', `/payout-batches/${approvalBatchId}`)).status).toBe('AWAITING_APPROVAL');

    // The list: both batches, newest first.
    await page.goto('/app/payout-batches');
    const table = page.getByRole('table', { name: 'Lotes de pagamento, os mais recentes primeiro' });
    await page.getByText('2 lotes', { exact: true }).waitFor();
    const first = table.locator('tbody tr').first();
    expect(await first.getAttribute('data-batch-id')).toBe(approvalBatchId);
    await first.getByText('Aguardando aprovação', { exact: true }).waitFor();
    await table.locator('tbody tr').nth(1).getByText('1 com erro').waitFor();
    await expectNoSeriousA11yViolations(page);
  });

  it('a second person (an ADMIN) approves it in the page and sees the deposit address; then the owner pauses, resumes and cancels the unpaid rest', async () => {
    expect(approvalBatchId).not.toBe('');
    const { page } = browser;
    await addSessionCookie(browser.context, server.baseUrl, adminSession);
    await page.goto(`/app/payout-batches/${approvalBatchId}`);
    const summary = page.getByRole('region', { name: 'O lote' });
    await summary.getByText('Aguardando aprovação', { exact: true }).waitFor();
    await summary.getByText('Outra pessoa da equipe', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Aprovar o lote' }).click();
    await summary.getByText('Aguardando depósito', { exact: true }).waitFor();
    const batch = await api('GET', `/payout-batches/${approvalBatchId}`);
    expect(batch).toMatchObject({ status: 'AWAITING_FUNDING', approvalRequired: true });
    const funding = page.getByRole('region', { name: 'Depósito do lote' });
    expect(await funding.getByTestId('batch-deposit-address').textContent()).toBe(batch.depositAddress);
    const qr = funding.getByRole('img', { name: 'QR code do endereço de depósito' });
    expect(decodeDrawnQr({ viewBox: (await qr.getAttribute('viewBox')) ?? '', path: (await qr.locator('path').getAttribute('d')) ?? '' })).toBe(batch.depositAddress);
    expect(plain(await funding.textContent())).toContain(`Envie ${batch.totalCrypto.replace('.', ',')}`);
    await funding.getByRole('button', { name: 'Copiar o endereço' }).waitFor();
    await expectNoSeriousA11yViolations(page);
    await chooseLanguage(page, 'en');
    await page.getByRole('region', { name: "The batch's deposit" }).getByRole('button', { name: 'Copy the address' }).waitFor();
    await screenshot(page, 'batch-awaiting-deposit-en');
    await expectNoSeriousA11yViolations(page);
    await chooseLanguage(page, 'pt-BR');

    await switchSession(page, server.baseUrl, ownerSession);
    await page.goto(`/app/payout-batches/${approvalBatchId}`);
    const actions = page.getByRole('region', { name: 'Ações' });
    await actions.getByRole('button', { name: 'Pausar' }).click();
    await summary.getByText('Pausado', { exact: true }).waitFor();
    await actions.getByRole('button', { name: 'Retomar' }).click();
    await summary.getByText('Aguardando depósito', { exact: true }).waitFor();
    await actions.getByRole('button', { name: 'Pausar' }).click();
    await summary.getByText('Pausado', { exact: true }).waitFor();
    await actions.getByRole('button', { name: 'Cancelar o restante não pago' }).click();
    await expectNoSeriousA11yViolations(page);
    await actions.getByRole('group').getByRole('button', { name: 'Cancelar o restante não pago' }).click();
    await summary.getByText('Cancelado', { exact: true }).waitFor();
    const report = page.getByRole('region', { name: 'Resultado da conferência' });
    await report.locator('tr[data-status="CANCELLED"]').nth(1).waitFor();
    expect(await report.locator('tr[data-status="CANCELLED"]').count()).toBe(2);
    expect(await actions.getByRole('button').count()).toBe(0);
    expect((await api('GET', `/payout-batches/${approvalBatchId}`)).status).toBe('CANCELLED');
    await expectNoSeriousA11yViolations(page);
  });

  it('a batch below the threshold is funded: each line an order linked to its page, and the report downloads as CSV', async () => {
    await addSessionCookie(browser.context, server.baseUrl, ownerSession);
    const { page } = browser;
    const created = await api('POST', '/payout-batches', { token: 'USDC', items: [{ receiverId: receivers[0], amountCrypto: '2', externalId: 'lote-c-1' }] });
    expect(created.status).toBe('VALIDATED');
    await page.goto(`/app/payout-batches/${created.id}`);
    await page.getByRole('button', { name: 'Confirmar o lote' }).click();
    const summary = page.getByRole('region', { name: 'O lote' });
    await summary.getByText('Aguardando depósito', { exact: true }).waitFor();
    await api('POST', `/sandbox/payout-batches/${created.id}/deposit`, {});
    const report = page.getByRole('region', { name: 'Resultado da conferência' });
    const line = report.locator('tr[data-line="1"]');
    await line.getByText('Pedido criado', { exact: true }).waitFor({ timeout: 30_000 });
    const items = await api('GET', `/payout-batches/${created.id}/items`);
    const orderId = String(items.data[0].orderId);
    expect(await line.getByRole('link', { name: orderId }).getAttribute('href')).toBe(`/app/orders/${orderId}`);
    await screenshot(page, 'batch-funded');
    await expectNoSeriousA11yViolations(page);

    const exported = report.getByRole('link', { name: 'Exportar o relatório (CSV)' });
    const href = await exported.getAttribute('href');
    expect(href).toBe(`/api/v1/payout-batches/${created.id}/report`);
    const csv = await page.request.get(href!);
    expect(csv.status()).toBe(200);
    expect(csv.headers()['content-type']).toContain('text/csv');
    const text = await csv.text();
    expect(text.split(/\r?\n/)[0]).toBe('line,status,receiverId,externalId,amountCrypto,amountBrl,netAmountBrl,orderId,orderStatus,errors');
    expect(text).toContain(orderId);

    await line.getByRole('link', { name: orderId }).click();
    await page.waitForURL(new RegExp(`/app/orders/${orderId}$`));
    await page.getByRole('heading', { level: 1, name: /lote-c-1/ }).waitFor();
  });

  it('the new pages pass axe while they load and once loaded, in pt-BR and English', async () => {
    await addSessionCookie(browser.context, server.baseUrl, ownerSession);
    const { page } = browser;
    /** Holds the requests matching `pattern` until released, so the page's loading state stays on screen. */
    const held = async (pattern: RegExp) => {
      let release = () => {};
      const gate = new Promise<void>((resolve) => (release = resolve));
      await page.route(pattern, async (route: Route) => {
        await gate;
        await route.continue();
      });
      // Left in place once released (its gate then open): unrouting while a request waits in it would handle that request twice.
      return release;
    };
    await page.goto('/app/account');
    for (const [language, loading, heading] of [['pt-BR', 'Carregando…', 'Lotes de pagamento'], ['en', 'Loading…', 'Payout batches']] as const) {
      await chooseLanguage(page, language);
      const releaseList = await held(/\/api\/v1\/payout-batch(es\?|-settings)/);
      await page.goto('/app/payout-batches');
      await page.getByRole('status').filter({ hasText: loading }).first().waitFor();
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      await expectNoSeriousA11yViolations(page);
      releaseList();
      await page.locator('tbody tr').first().waitFor();
      await expectNoSeriousA11yViolations(page);

      await page.goto('/app/payout-batches/new');
      await page.getByRole('heading', { level: 1 }).waitFor();
      await expectNoSeriousA11yViolations(page);

      const releaseBatch = await held(new RegExp(`/api/v1/payout-batches/${approvalBatchId}(/items\\?.*)?$`));
      await page.goto(`/app/payout-batches/${approvalBatchId}`);
      await page.getByRole('status').filter({ hasText: loading }).first().waitFor();
      await expectNoSeriousA11yViolations(page);
      releaseBatch();
      await page.locator('tr[data-line="1"]').waitFor();
      expect(await page.getByRole('status').filter({ hasText: loading }).count()).toBe(0);
      await expectNoSeriousA11yViolations(page);
    }
  });
});
