/**
 * The merchant's MED claims in a browser (issue 42, item 2), on the service as `npm start` runs it
 * (sandbox PSP): two PAYINs completed through the API with the sandbox drivers, each then claimed
 * by the payer's PSP (`POST /sandbox/orders/{id}/med-claim`, one with 12 hours to defend). The
 * merchant opens the first claimed order, sees the claim there, goes to the claim, is stopped by
 * the form's own checks, defends it with evidence, the receiving PSP decides (sandbox) and the
 * merchant sees the outcome in both languages. Then the overview's notice and the list (status
 * filter in the address, the near deadline's badge), a VIEWER who reads but gets no form, and the
 * API's 409 DISPUTE_NOT_OPEN said in words when the claim was decided while the form was open;
 * last, a claim made with its deadline already passed: no form, the deadline shown as passed.
 * Axe on the list and the claim page in pt-BR and English, also while their data loads (the
 * requests held by the test).
 */
import type { Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations, screenshot, useBrowser } from '../helpers/browser.ts';
import { addSessionCookie, type ApiSession, type DashboardServer, invitePerson, signedInOwner, signInByApi, startDashboardServer, demoKeyApi, switchSession } from '../helpers/dashboard-server.ts';
import { randomCpf } from '../helpers/documents.ts';
import { waitFor } from '../helpers/processes.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const WALLET = '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T';
/** Intl writes "R$\u00a0150,00": the non-breaking space compared as a plain one. */
const plain = (text: string | null) => (text ?? '').replace(/\u00a0/g, ' ');

describe('merchant disputes pages', { timeout: 120_000 }, () => {
  let server: DashboardServer;
  let ownerSession: ApiSession;
  let viewerSession: ApiSession;
  /** The claim defended and decided (on a PAYIN of R$ 150,00), and the one left open with 12 hours to go (R$ 80,00). */
  const first = { orderId: '', disputeId: '' };
  const near = { orderId: '', disputeId: '' };
  const reason = 'Golpe do falso parente: o pagador diz que não conhece a loja';
  const browser = useBrowser({ baseURL: () => server.baseUrl });

  const api = demoKeyApi(() => server);
  const until = (id: string, status: string) => waitFor(async () => ((await api('GET', `/orders/${id}`)).status === status ? true : undefined), 30_000);

  async function completedPayin(receiverId: string, amountBrl: number): Promise<string> {
    const payin = await api('POST', '/payin', { receiverId, amountBrl });
    await api('POST', `/sandbox/orders/${payin.id}/pix-payment`, {});
    await until(payin.id, 'COMPLETED');
    return payin.id as string;
  }

  beforeAll(async () => {
    server = await startDashboardServer({ LOG_LEVEL: 'info' }); // info: the VIEWER's invitation link comes through the log email port
    ({ session: ownerSession } = await signedInOwner(server));
    const viewer = await invitePerson(server, ownerSession, `viewer-${Date.now()}@example.com`, 'VIEWER');
    viewerSession = await signInByApi(server.baseUrl, viewer);
    // Night orders allowed: the test may run in the São Paulo night window.
    const receiver = await api('POST', '/receivers', { type: 'PF', document: randomCpf(), name: 'Cliente Contestado', email: 'contestado@example.com', walletAddress: WALLET, limits: { nightTransactionsEnabled: true } });
    await api('POST', `/sandbox/receivers/${receiver.id}/kyc`, { decision: 'APPROVE' });
    first.orderId = await completedPayin(receiver.id, 150);
    near.orderId = await completedPayin(receiver.id, 80);
    first.disputeId = (await api('POST', `/sandbox/orders/${first.orderId}/med-claim`, { reason })).id;
    near.disputeId = (await api('POST', `/sandbox/orders/${near.orderId}/med-claim`, { defenseHours: 12 })).id;
  }, 180_000);

  afterAll(async () => {
    if (server) expect(await server.stop()).toBe(0);
  });

  const chooseLanguage = async (page: Page, language: 'pt-BR' | 'en') => {
    await page.getByLabel(/^(Idioma|Language)$/).selectOption(language);
  };

  it('a merchant opens a claimed order, goes to the claim, defends it before the deadline and sees the outcome', async () => {
    await addSessionCookie(browser.context, server.baseUrl, ownerSession);
    const { page } = browser;
    await page.goto(`/app/orders/${first.orderId}`);
    const notice = page.getByRole('region', { name: 'Contestação MED aberta sobre este pedido' });
    await notice.waitFor();
    expect(plain(await notice.textContent())).toContain('R$ 150,00');
    await expectNoSeriousA11yViolations(page);
    await notice.getByRole('link', { name: 'Ver a contestação' }).click();
    await page.waitForURL(new RegExp(`/app/disputes/${first.disputeId}$`));
    await page.getByRole('heading', { level: 1, name: /^Contestação MED de \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/ }).waitFor();
    await page.getByRole('region', { name: 'Motivo informado pelo PSP do pagador' }).getByText(reason).waitFor();
    const facts = page.getByRole('region', { name: 'A contestação' });
    await facts.getByText('Aberta', { exact: true }).waitFor();
    await facts.getByText(first.disputeId, { exact: true }).waitFor();
    // The whole order id: UUID v7s made within a minute share their first 8 characters.
    expect(await facts.getByRole('link', { name: first.orderId }).getAttribute('href')).toBe(`/app/orders/${first.orderId}`);
    // 72 hours ahead: no "near" badge.
    expect(await facts.locator('[data-urgency]').count()).toBe(0);
    await expectNoSeriousA11yViolations(page);

    // The form's own checks, before anything is sent: a short justification, an evidence row without a description and with a non-http address.
    const form = page.getByRole('form', { name: 'Sua defesa' });
    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().includes('/defense')) sent.push(request.url());
    });
    await form.getByLabel('Justificativa').fill('curta');
    await form.getByRole('button', { name: 'Adicionar evidência' }).click();
    await form.getByLabel('Link da evidência 1 (opcional)').fill('ftp://arquivo.example.com/nota.pdf');
    await form.getByRole('button', { name: 'Enviar a defesa' }).click();
    await form.getByText('Escreva ao menos 10 caracteres.').waitFor();
    await form.getByText('Descreva a evidência.').waitFor();
    await form.getByText('Um endereço completo, começando por https:// ou http://, de até 2.000 caracteres.').waitFor();
    expect(await form.getByLabel('Justificativa').getAttribute('aria-invalid')).toBe('true');
    await expectNoSeriousA11yViolations(page);
    expect(sent).toEqual([]);
    // Up to 10 rows: the button stops at the tenth; a row is removed by its own button.
    for (let rows = 1; rows < 10; rows++) await form.getByRole('button', { name: 'Adicionar evidência' }).click();
    expect(await form.getByTestId('evidence-row').count()).toBe(10);
    expect(await form.getByRole('button', { name: 'Adicionar evidência' }).isDisabled()).toBe(true);
    for (let n = 10; n > 2; n--) await form.getByRole('button', { name: `Remover a evidência ${n}` }).click();
    expect(await form.getByTestId('evidence-row').count()).toBe(2);

    const justification = 'O pagador comprou e recebeu a mercadoria; o comprovante de entrega está assinado por ele.';
    await form.getByLabel('Justificativa').fill(justification);
    await form.getByLabel('Descrição da evidência 1').fill('Comprovante de entrega assinado');
    await form.getByLabel('Link da evidência 1 (opcional)').fill('https://evidence.example.com/entrega.pdf');
    await form.getByLabel('Descrição da evidência 2').fill('Nota fiscal');
    await form.getByLabel('SHA-256 do documento 2 (opcional)').fill('AB'.repeat(32));
    await form.getByRole('button', { name: 'Enviar a defesa' }).click();
    await page.getByText('Defesa enviada ao PSP.').waitFor();
    const defense = page.getByRole('region', { name: 'Sua defesa' });
    await defense.getByText(justification).waitFor();
    expect(await defense.getByRole('link', { name: 'https://evidence.example.com/entrega.pdf' }).getAttribute('rel')).toBe('noopener noreferrer');
    await facts.getByText('Defendida', { exact: true }).waitFor();
    expect(sent).toHaveLength(1);
    const defended = await api('GET', `/disputes/${first.disputeId}`);
    expect(defended).toMatchObject({
      status: 'DEFENDED',
      defense: { justification, evidence: [{ description: 'Comprovante de entrega assinado', url: 'https://evidence.example.com/entrega.pdf' }, { description: 'Nota fiscal', sha256: 'ab'.repeat(32) }] },
    });
    await expectNoSeriousA11yViolations(page);

    // The receiving PSP accepts the claim: the tokens had left, so the PIX is returned from the platform and charged to the merchant.
    const decided = await api('POST', `/sandbox/disputes/${first.disputeId}/decision`, { outcome: 'ACCEPTED' });
    expect(decided).toMatchObject({ status: 'ACCEPTED', outcome: 'CHARGED_BACK' });
    await page.reload();
    const outcome = page.getByRole('region', { name: 'Decisão' });
    await outcome.getByText('PIX devolvido ao pagador e cobrado do seu saldo de tarifas').waitFor();
    await outcome.getByText('Aceita', { exact: true }).waitFor();
    await page.getByRole('region', { name: 'Sua defesa' }).getByText(justification).waitFor();
    await expectNoSeriousA11yViolations(page);
    await chooseLanguage(page, 'en');
    const outcomeEn = page.getByRole('region', { name: 'Decision' });
    await outcomeEn.getByText('PIX returned to the payer and charged to your fee balance').waitFor();
    await outcomeEn.getByText('Accepted', { exact: true }).waitFor();
    await screenshot(page, 'dispute-decided-en');
    await expectNoSeriousA11yViolations(page);
    // No open claim on the order any more: its page has no notice.
    await page.goto(`/app/orders/${first.orderId}`);
    await page.getByRole('heading', { name: 'Timeline' }).waitFor();
    expect(await page.getByTestId('order-claim').count()).toBe(0);
  });

  it('the overview and the list show the open claim with its near deadline; the status filter lives in the address', async () => {
    await addSessionCookie(browser.context, server.baseUrl, ownerSession);
    const { page } = browser;
    await page.goto('/app');
    const attention = page.getByRole('region', { name: 'Contestações MED abertas' });
    await attention.waitFor();
    await attention.getByText('1 contestação aberta aguarda defesa ou decisão.').waitFor();
    await attention.getByText('Vence em menos de 24 h', { exact: true }).waitFor();
    expect(await attention.getByRole('link', { name: /R\$\s80,00/ }).getAttribute('href')).toBe(`/app/disputes/${near.disputeId}`);
    await expectNoSeriousA11yViolations(page);
    await attention.getByRole('link', { name: 'Ver as contestações abertas' }).click();
    await page.waitForURL(/\/app\/disputes\?status=OPEN$/);
    await page.getByRole('heading', { level: 1, name: 'Contestações MED' }).waitFor();
    const table = page.getByRole('table', { name: /contestaç/ });
    await table.getByText('1 contestação, as mais recentes primeiro').waitFor();
    expect(await page.getByLabel('Situação').inputValue()).toBe('OPEN');
    const nearRow = table.locator('tbody tr', { has: page.getByRole('link', { name: near.orderId }) });
    for (const text of ['Aberta', 'Vence em menos de 24 h']) await nearRow.getByText(text, { exact: true }).waitFor();
    expect(plain(await nearRow.textContent())).toContain('R$ 80,00');

    // Every status: both claims, newest first (the near one was claimed last); then one status with none.
    await page.getByLabel('Situação').selectOption('');
    await page.waitForURL((url) => url.search === '');
    await table.getByText('2 contestações, as mais recentes primeiro').waitFor();
    const rows = table.locator('tbody tr');
    expect(await rows.count()).toBe(2);
    expect(await rows.nth(0).textContent()).toContain(near.orderId);
    expect(await rows.nth(1).textContent()).toContain(first.orderId);
    await rows.nth(1).getByText('Aceita', { exact: true }).waitFor();
    await rows.nth(1).getByText(reason).waitFor();
    expect(await rows.nth(1).locator('[data-urgency]').count()).toBe(0);
    await expectNoSeriousA11yViolations(page);
    await page.getByLabel('Situação').selectOption('REJECTED');
    await page.waitForURL(/status=REJECTED/);
    await page.getByText('Nenhuma contestação com esta situação.').waitFor();
    // The menu leads here, in English too.
    await chooseLanguage(page, 'en');
    await page.getByRole('link', { name: 'MED claims' }).first().click();
    await page.waitForURL((url) => url.pathname === '/app/disputes' && url.search === '');
    await page.getByRole('table', { name: '2 claims, newest first' }).getByText('Due within 24 h', { exact: true }).waitFor();
    await screenshot(page, 'disputes-list-en');
    await expectNoSeriousA11yViolations(page);
  });

  it('the list and the claim page pass axe while they load and once loaded, in pt-BR and English', async () => {
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
    for (const [language, loading, heading] of [['pt-BR', 'Carregando…', 'Contestações MED'], ['en', 'Loading…', 'MED claims']] as const) {
      await chooseLanguage(page, language);
      const releaseList = await held(/\/api\/v1\/disputes\?/);
      await page.goto('/app/disputes');
      await page.getByRole('status').filter({ hasText: loading }).waitFor();
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      await expectNoSeriousA11yViolations(page);
      releaseList();
      await page.locator('tbody tr').first().waitFor();
      await expectNoSeriousA11yViolations(page);

      const releaseClaim = await held(new RegExp(`/api/v1/disputes/${near.disputeId}$`));
      await page.goto(`/app/disputes/${near.disputeId}`);
      await page.getByRole('status').filter({ hasText: loading }).waitFor();
      await expectNoSeriousA11yViolations(page);
      releaseClaim();
      await page.getByRole('form').waitFor();
      expect(await page.getByRole('status').filter({ hasText: loading }).count()).toBe(0);
      await expectNoSeriousA11yViolations(page);
    }
  });

  it('a VIEWER reads the claim without the form; a claim decided while the form is open is refused in words (409)', async () => {
    const { page } = browser;
    await addSessionCookie(browser.context, server.baseUrl, viewerSession);
    await page.goto(`/app/disputes/${near.disputeId}`);
    await page.getByLabel(/^(Idioma|Language)$/).waitFor();
    await chooseLanguage(page, 'pt-BR');
    await page.getByText('Sua função não permite enviar a defesa: peça a um proprietário ou administrador.').waitFor();
    expect(await page.getByRole('form').count()).toBe(0);
    await page.getByRole('region', { name: 'A contestação' }).getByText('Vence em menos de 24 h', { exact: true }).waitFor();
    await expectNoSeriousA11yViolations(page);

    // The owner has the form open when the payer's PSP withdraws the claim.
    const disputePage = page.url();
    await switchSession(page, server.baseUrl, ownerSession);
    browser.allowProblems(/status of 409/);
    await page.goto(disputePage);
    const form = page.getByRole('form', { name: 'Sua defesa' });
    await form.getByLabel('Justificativa').fill('O pagador reconheceu a compra por mensagem ao nosso atendimento.');
    await api('POST', `/sandbox/disputes/${near.disputeId}/decision`, { outcome: 'CANCELLED' });
    const refused = page.waitForResponse((response) => response.url().endsWith(`/disputes/${near.disputeId}/defense`));
    await form.getByRole('button', { name: 'Enviar a defesa' }).click();
    const answer = await refused;
    expect(answer.status()).toBe(409);
    expect(((await answer.json()) as Json).error).toBe('DISPUTE_NOT_OPEN');
    await page.getByRole('alert').getByText('Esta contestação não está mais aberta (já foi defendida ou decidida): a defesa não foi enviada.').waitFor();
    // Read again: the claim as it is now, and no form.
    await page.getByRole('region', { name: 'A contestação' }).getByText('Cancelada', { exact: true }).waitFor();
    await page.getByText('Esta contestação não aceita mais defesa.').waitFor();
    expect(await page.getByRole('form').count()).toBe(0);
    await expectNoSeriousA11yViolations(page);
  });

  it('a claim whose deadline passed shows it passed and offers no form; the API refuses the defence with 422', async () => {
    await addSessionCookie(browser.context, server.baseUrl, ownerSession);
    const { page } = browser;
    const receiver = (await api('GET', '/receivers?limit=1')).data[0];
    const orderId = await completedPayin(receiver.id, 40);
    const late = await api('POST', `/sandbox/orders/${orderId}/med-claim`, { defenseHours: 0 });
    await page.goto(`/app/disputes/${late.id}`);
    await chooseLanguage(page, 'pt-BR');
    const facts = page.getByRole('region', { name: 'A contestação' });
    await facts.getByText('Vencido', { exact: true }).waitFor();
    await page.getByText(/^O prazo de defesa terminou em \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}\.$/).waitFor();
    expect(await page.getByRole('form').count()).toBe(0);
    await expectNoSeriousA11yViolations(page);
    // What the form would have met: the API's refusal, whose words the page has (disputes.error.DEFENSE_DEADLINE_PASSED).
    const refused = await fetch(`${server.baseUrl}/api/v1/disputes/${late.id}/defense`, {
      method: 'POST',
      headers: { 'x-api-key': server.apiKey, 'x-api-secret': server.apiSecret, 'content-type': 'application/json' },
      body: JSON.stringify({ justification: 'Tarde demais, mas o pagador recebeu.' }),
    });
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as Json).error).toBe('DEFENSE_DEADLINE_PASSED');
  });
});
