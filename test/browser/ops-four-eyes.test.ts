/**
 * The back office's four-eyes refund in Chromium, on the service as `npm start` runs it (sandbox
 * PSP and chain, the real worker): a PAYIN made stuck through the merchant API (its transfer and
 * then its refund fail: FAILED holding the customer's PIX). Operator A (OPERATIONS) finds it in
 * the stuck queue, opens it and proposes the refund in the page; A cannot approve it (the button
 * is disabled and the API answers 403 OWN_PROPOSAL); operator B (FINANCE) approves it in the page;
 * the order ends REFUNDED, `order.refunded` reaches a loopback receiver, and the order's ledger
 * entries balance. A VIEWER sees the actions disabled and the API refuses it (403). Axe on every
 * page; screenshots of the stuck list, the order page and the approval page.
 */
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations, screenshot, useBrowser } from '../helpers/browser.ts';
import { type DashboardServer, startDashboardServer, demoKeyApi } from '../helpers/dashboard-server.ts';
import { addOperatorCookie, type OperatorRole, operatorFetch, type SignedInOperatorSession, signedInOperator, TEST_ADMIN_TOKEN, webhookSink } from '../helpers/ops-browser.ts';
import { randomCpf } from '../helpers/documents.ts';
import { waitFor } from '../helpers/processes.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const WALLET = '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T';
// The dashboard's index.html names no icon, so Chromium asks for /favicon.ico (404): not these pages' doing.
const FAVICON = /favicon\.ico/;

type Operator = SignedInOperatorSession;

/** Decimal text as an integer of 10^-18 units (exact: the ledger's amounts are never floats). */
function units(amount: string): bigint {
  const [, sign, whole, fraction = ''] = /^(-?)(\d+)(?:\.(\d+))?$/.exec(amount)!;
  const value = BigInt(whole!) * 10n ** 18n + BigInt(fraction.padEnd(18, '0').slice(0, 18));
  return sign ? -value : value;
}

describe('four-eyes refund of a stuck PAYIN in the back office', { timeout: 90_000 }, () => {
  let server: DashboardServer;
  let sink: Awaited<ReturnType<typeof webhookSink>>;
  let proposer: Operator;
  let approver: Operator;
  let viewer: Operator;
  let stuckId = '';
  let otherStuckId = '';
  let approvalId = '';
  const browser = useBrowser({ baseURL: () => server.baseUrl });

  const merchantApi = demoKeyApi(() => server);

  /** A back-office call with an operator's session (the admin token when `who` is null). */
  const adminApi = (who: Operator | null, method: string, path: string, body?: unknown) =>
    who
      ? operatorFetch(server.baseUrl, who, method, path, body)
      : fetch(`${server.baseUrl}/api/v1/admin${path}`, { method, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
  const operator = (role: OperatorRole) => signedInOperator(server, role);
  const actAs = (context: BrowserContext, who: Operator) => addOperatorCookie(context, server.baseUrl, who);

  /** A PAYIN whose transfer fails and then whose refund fails: FAILED with the customer's PIX held (the real worker runs it). */
  async function stuckPayin(receiverId: string, amountBrl: number): Promise<string> {
    const payin = await merchantApi('POST', '/payin', { receiverId, amountBrl });
    for (const step of ['CHAIN_TRANSFER', 'PIX_REFUND']) await merchantApi('POST', `/sandbox/orders/${payin.id}/failure-injections`, { step });
    await merchantApi('POST', `/sandbox/orders/${payin.id}/pix-payment`, {});
    await waitFor(async () => ((await merchantApi('GET', `/orders/${payin.id}`)).status === 'FAILED' ? true : undefined), 30_000);
    return payin.id as string;
  }

  beforeAll(async () => {
    sink = await webhookSink();
    server = await startDashboardServer({ ADMIN_TOKEN: TEST_ADMIN_TOKEN, LOG_LEVEL: 'info' }); // info: invitation links come through the log email port
    await merchantApi('POST', '/webhook/endpoints', { url: sink.url, description: 'four-eyes browser test' });
    const receiver = await merchantApi('POST', '/receivers', {
      type: 'PF',
      document: randomCpf(),
      name: 'Cliente Retido',
      email: 'retido@example.com',
      walletAddress: WALLET,
      limits: { nightTransactionsEnabled: true }, // the real clock may be in the night window
    });
    await merchantApi('POST', `/sandbox/receivers/${receiver.id}/kyc`, { decision: 'APPROVE' });
    [stuckId, otherStuckId, proposer, approver, viewer] = await Promise.all([
      stuckPayin(receiver.id, 120),
      stuckPayin(receiver.id, 45.5),
      operator('OPERATIONS'),
      operator('FINANCE'),
      operator('VIEWER'),
    ]);
  }, 120_000);

  afterAll(async () => {
    sink?.server.close();
    if (server) expect(await server.stop()).toBe(0);
  });

  it('operator A finds the order in the stuck queue, opens it and proposes the refund in the page', async () => {
    browser.allowProblems(FAVICON);
    await actAs(browser.context, proposer);
    const { page } = browser;
    await page.goto('/app/ops/orders/stuck');
    await page.getByRole('heading', { level: 1, name: 'Pedidos parados' }).waitFor();
    const row = page.locator(`tr[data-order-id="${stuckId}"]`);
    await row.waitFor();
    for (const text of ['Falhou retendo o PIX', 'Estornar', 'Sim']) await row.getByText(text, { exact: true }).waitFor();
    await row.getByText(/R\$\s120,00/).waitFor();
    expect(await row.locator('td').nth(5).textContent()).toMatch(/min$/);
    await expectNoSeriousA11yViolations(page);
    await screenshot(page, 'stuck-orders');

    // The threshold selector goes to the address and to the API.
    await page.getByLabel('Parados há pelo menos').selectOption('60');
    await page.waitForURL(/olderThanMinutes=60/);
    await page.getByText('Limite aplicado: 60 min.', { exact: false }).waitFor();
    await row.waitFor();

    // The search across merchants finds it by its id too.
    await page.goto(`/app/ops/orders?q=${stuckId}`);
    await page.getByRole('heading', { level: 1, name: 'Pedidos' }).waitFor();
    await page.getByRole('link', { name: stuckId }).waitFor();
    await expectNoSeriousA11yViolations(page);

    await page.goto('/app/ops/orders/stuck');
    await row.getByRole('link', { name: stuckId }).click();
    await page.getByRole('heading', { level: 1, name: `Pedido ${stuckId}` }).waitFor();
    const { failureReason } = (await (await adminApi(proposer, 'GET', `/orders/${stuckId}`)).json()) as Json;
    await page.locator('section', { has: page.getByRole('heading', { name: 'Dados do pedido' }) }).getByText(failureReason, { exact: true }).waitFor();
    await expectNoSeriousA11yViolations(page);

    await page.getByRole('button', { name: 'Estornar' }).click();
    const dialog = page.getByRole('dialog', { name: 'Propor o estorno' });
    await dialog.waitFor();
    await dialog.getByRole('textbox', { name: /Motivo/ }).fill('Estorno recusado pelo PSP; pedir de novo');
    await expectNoSeriousA11yViolations(page);
    await dialog.getByRole('button', { name: 'Propor estorno' }).click();
    await page.getByText('Estorno aguardando aprovação').waitFor();
    expect(await page.getByRole('button', { name: 'Estornar' }).isDisabled()).toBe(true);
    await screenshot(page, 'order-page');

    await page.getByRole('link', { name: 'Abrir a proposta' }).click();
    await page.waitForURL(/\/app\/ops\/approvals\/[0-9a-f-]{36}$/);
    approvalId = new URL(page.url()).pathname.split('/').pop()!;
    expect((await (await adminApi(proposer, 'GET', `/approvals/${approvalId}`)).json()) as Json).toMatchObject({ action: 'ORDER_REFUND', targetId: stuckId, status: 'PENDING', proposedBy: { id: proposer.id } });
  });

  it('operator A sees Approve disabled on its own proposal, and the API refuses it (403 OWN_PROPOSAL)', async () => {
    browser.allowProblems(FAVICON);
    await actAs(browser.context, proposer);
    const { page } = browser;
    await page.goto('/app/ops/approvals');
    await page.getByRole('heading', { level: 1, name: 'Aprovações' }).waitFor();
    const row = page.locator(`tr[data-approval-id="${approvalId}"]`);
    await row.getByText(proposer.email).waitFor();
    await row.getByRole('link', { name: `Pedido ${stuckId}` }).waitFor();
    await expectNoSeriousA11yViolations(page);
    // Every kind of target by its own name: the approved invitation that made this operator.
    await page.goto('/app/ops/approvals?status=APPROVED');
    await page.getByText(`Convite para ${proposer.email}`).waitFor();
    await page.goto('/app/ops/approvals');

    await row.getByRole('link', { name: 'Estorno de pedido' }).click();
    await page.getByRole('heading', { level: 1, name: 'Proposta: Estorno de pedido' }).waitFor();
    await page.getByText('Você fez esta proposta: outro operador precisa aprová-la ou recusá-la.').waitFor();
    expect(await page.getByRole('button', { name: 'Aprovar' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Recusar' }).isDisabled()).toBe(true);
    await expectNoSeriousA11yViolations(page);

    const own = await adminApi(proposer, 'POST', `/approvals/${approvalId}/approve`, {});
    expect(own.status).toBe(403);
    expect(((await own.json()) as Json).details).toEqual({ reason: 'OWN_PROPOSAL' });
  });

  it('operator B approves it in the page: REFUNDED, order.refunded delivered, the ledger balanced', async () => {
    browser.allowProblems(FAVICON);
    await actAs(browser.context, approver);
    const { page } = browser;
    await page.goto(`/app/ops/approvals/${approvalId}`);
    await page.getByRole('heading', { level: 1, name: 'Proposta: Estorno de pedido' }).waitFor();
    await page.getByRole('textbox', { name: 'Nota (opcional)' }).fill('Extrato do PSP conferido');
    await page.getByRole('button', { name: 'Aprovar' }).click();
    await page.getByText(`Aprovada por ${approver.email} em`, { exact: false }).waitFor();
    await page.getByText('Situação do pedido após a aprovação: Devolvendo.').waitFor();
    await page.getByText('Extrato do PSP conferido', { exact: true }).waitFor();
    await expectNoSeriousA11yViolations(page);
    await screenshot(page, 'approval-page');

    await waitFor(async () => ((await merchantApi('GET', `/orders/${stuckId}`)).status === 'REFUNDED' ? true : undefined), 30_000);
    await waitFor(async () => (sink.received.some((body) => body.includes(stuckId) && body.includes('"order.refunded"')) ? true : undefined), 30_000);

    // The order page follows it to REFUNDED, and nothing is left to do.
    await page.getByRole('link', { name: `Pedido ${stuckId}` }).click();
    await page.getByRole('heading', { level: 1, name: `Pedido ${stuckId}` }).waitFor();
    await page.locator('section', { has: page.getByRole('heading', { name: 'Dados do pedido' }) }).getByText('Devolvido', { exact: true }).waitFor({ timeout: 15_000 });
    await page.getByText('Nenhuma ação disponível para este pedido agora.').waitFor();

    // The ledger: every entry of the order balances per currency, a PAYIN_REFUNDED entry exists,
    // and the customer's funds in transit for this order are back to zero.
    const detail = (await (await adminApi(approver, 'GET', `/orders/${stuckId}`)).json()) as Json;
    const entries = (detail.timeline as Json[]).filter((entry) => entry.kind === 'LEDGER_ENTRY').map((entry) => entry.ledgerEntry as Json);
    expect(entries.map((entry) => entry.kind)).toContain('PAYIN_REFUNDED');
    for (const entry of entries) {
      const sums = new Map<string, bigint>();
      for (const posting of entry.postings as Json[]) sums.set(posting.currency, (sums.get(posting.currency) ?? 0n) + units(posting.amount));
      expect([...sums.values()].every((sum) => sum === 0n), `entry ${entry.kind} unbalanced`).toBe(true);
    }
    const inTransit = entries.flatMap((entry) => entry.postings as Json[]).filter((posting) => posting.account === 'customer_funds_in_transit');
    expect(inTransit.length).toBeGreaterThan(0);
    expect(inTransit.reduce((sum, posting) => sum + units(posting.amount), 0n)).toBe(0n);
  });

  it('a VIEWER sees the actions disabled on the order and approval pages, and the API refuses the same calls (403)', async () => {
    browser.allowProblems(FAVICON);
    await actAs(browser.context, viewer);
    const { page } = browser;
    await page.goto(`/app/ops/orders/${otherStuckId}`);
    await page.getByRole('heading', { level: 1, name: `Pedido ${otherStuckId}` }).waitFor();
    await page.getByText('Seu perfil não tem a permissão orders.operate: as ações estão desativadas.').waitFor();
    expect(await page.getByRole('button', { name: 'Estornar' }).isDisabled()).toBe(true);
    await expectNoSeriousA11yViolations(page);
    const proposal = await adminApi(viewer, 'POST', '/approvals', { action: 'ORDER_REFUND', targetId: otherStuckId, reason: 'a viewer tries' });
    expect(proposal.status).toBe(403);
    expect(((await proposal.json()) as Json).details).toMatchObject({ reason: 'ROLE_NOT_ALLOWED' });
    expect((await adminApi(viewer, 'POST', `/orders/${otherStuckId}/mark-failed`, { reason: 'a viewer tries' })).status).toBe(403);

    const proposed = await adminApi(proposer, 'POST', '/approvals', { action: 'ORDER_REFUND', targetId: otherStuckId, reason: 'Second stuck order' });
    expect(proposed.status).toBe(201);
    const { id } = (await proposed.json()) as Json;
    await page.goto(`/app/ops/approvals/${id}`);
    await page.getByRole('heading', { level: 1, name: 'Proposta: Estorno de pedido' }).waitFor();
    await page.getByText('Seu perfil não tem a permissão orders.operate, necessária para decidir esta ação.').waitFor();
    expect(await page.getByRole('button', { name: 'Aprovar' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Recusar' }).isDisabled()).toBe(true);
    await expectNoSeriousA11yViolations(page);
    const approve = await adminApi(viewer, 'POST', `/approvals/${id}/approve`, {});
    expect(approve.status).toBe(403);
    expect(((await approve.json()) as Json).details).toMatchObject({ reason: 'ROLE_NOT_ALLOWED' });
    expect((await adminApi(viewer, 'POST', `/approvals/${id}/reject`, { reason: 'a viewer tries' })).status).toBe(403);
  });

  it('the audit log lists the proposal, the refund and the approval, each with its operator, time, target and before/after', async () => {
    browser.allowProblems(FAVICON);
    await actAs(browser.context, viewer);
    const { page } = browser;
    await page.goto('/app/ops/audit-log');
    await page.getByRole('heading', { level: 1, name: 'Registro de auditoria' }).waitFor();
    await page.getByRole('textbox', { name: 'Id do alvo' }).fill(stuckId);
    await page.getByRole('button', { name: 'Filtrar' }).click();
    const log = page.getByRole('table', { name: 'Registros, os mais recentes primeiro' });
    const rowOf = async (action: string) => {
      const row = log.getByRole('row', { name: new RegExp(action.replace('.', '\\.')) });
      await row.waitFor();
      return row.innerText();
    };
    const proposal = await rowOf('approval.propose');
    expect(proposal).toContain(proposer.email);
    expect(proposal).toMatch(/Antes: .*"status":"FAILED"/);
    const refund = await rowOf('order.refund');
    expect(refund).toContain(approver.email);
    expect(refund).toContain(`order ${stuckId}`);
    expect(refund).toMatch(/\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/);
    expect(refund).toMatch(/Antes: .*"status":"FAILED"[\s\S]*Depois: .*"status":"REFUNDING"/);
    const approval = await rowOf('approval.approve');
    expect(approval).toContain(approver.email);
    expect(approval).toMatch(/Depois: /);
    await expectNoSeriousA11yViolations(page);
  });
});
