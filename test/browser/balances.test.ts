/**
 * The balances page (/app/balances) and the overview's balance cards against the running
 * service: a completed PAYIN, a PAYOUT whose deposit brought 2.5 USDC more than ordered, a
 * settlement, a completed PAYIN charged back by an accepted MED claim, and a PAYIN left awaiting
 * its PIX. Every figure shown is checked against the ledger as the API lists it (the postings of
 * GET /ledger/entries summed per account, GET /ledger/settlements) and the orders (GET /orders),
 * not against GET /ledger/balances only. No platform account is visible on any merchant page
 * visited; axe in both languages, the loading state included.
 */
import type { Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decimal } from '../../src/lib/money.ts';
import { expectNoSeriousA11yViolations, screenshot, useBrowser } from '../helpers/browser.ts';
import { addSessionCookie, type ApiSession, type DashboardServer, signedInOwner, startDashboardServer, demoKeyApi } from '../helpers/dashboard-server.ts';
import { randomCpf } from '../helpers/documents.ts';
import { waitFor } from '../helpers/processes.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Intl writes "R$\u00a0249,90": the non-breaking space compared as a plain one. */
const plain = (text: string | null) => (text ?? '').replace(/\u00a0/g, ' ').trim();
/** "1234.5" as pt-BR writes it in the page: "R$ 1.234,50" (amounts here stay under 1,000). */
const brlPt = (amount: ReturnType<typeof decimal>) => `R$ ${amount.toFixed(2).replace('.', ',')}`;
const PLATFORM_CODES = ['token_treasury', 'pix_cash', 'fx_conversion', 'customer_funds_in_transit', 'platform_fee_revenue', 'med_returns_payable'];
const STAGE_STATUSES: Record<string, string[]> = {
  'PAYIN-AWAITING_PIX': ['AWAITING_PAYMENT'],
  'PAYIN-PIX_RECEIVED': ['PAYMENT_RECEIVED', 'SWAPPING', 'TRANSFERRING'],
  'PAYIN-PIX_BEING_RETURNED': ['REFUNDING'],
  'PAYOUT-AWAITING_DEPOSIT': ['AWAITING_DEPOSIT'],
  'PAYOUT-DEPOSIT_RECEIVED': ['DEPOSIT_RECEIVED', 'PIX_SENDING', 'PIX_SENT_UNCONFIRMED'],
};

describe('balances page', { timeout: 120_000 }, () => {
  let server: DashboardServer;
  let ownerSession: ApiSession;
  let claimedPayinId: string;
  const browser = useBrowser({ baseURL: () => server.baseUrl });

  const api = demoKeyApi(() => server);
  const until = (id: string, status: string) => waitFor(async () => ((await api('GET', `/orders/${id}`)).status === status ? true : undefined), 30_000);
  async function completedPayin(receiverId: string, amountBrl: number): Promise<string> {
    const payin = await api('POST', '/payin', { receiverId, amountBrl });
    await api('POST', `/sandbox/orders/${payin.id}/pix-payment`, {});
    await until(payin.id, 'COMPLETED');
    return payin.id;
  }

  /** Each merchant account's balance per currency, from the postings GET /ledger/entries lists (debits positive). */
  async function ledgerBalances(): Promise<Map<string, ReturnType<typeof decimal>>> {
    const sums = new Map<string, ReturnType<typeof decimal>>();
    for (let page = 1, pages = 1; page <= pages; page++) {
      const listed = await api('GET', `/ledger/entries?limit=100&page=${page}`);
      pages = listed.pagination.totalPages;
      for (const posting of (listed.entries as Json[]).flatMap((entry) => entry.postings as Json[])) {
        const key = `${posting.account}:${posting.currency}`;
        sums.set(key, (sums.get(key) ?? decimal(0)).plus(posting.amount));
      }
    }
    return sums;
  }

  beforeAll(async () => {
    server = await startDashboardServer();
    ({ session: ownerSession } = await signedInOwner(server));
    // A merchant fee of 1 % on both types, so the orders leave fees to settle.
    for (const type of ['PAYIN', 'PAYOUT']) {
      const tiers = (await api('GET', `/fee-tiers?orderType=${type}`)) as unknown as Json[];
      await api('PUT', `/fee-tiers/${type}`, tiers.map((tier) => ({ minVolumeBrl: tier.minVolumeBrl, maxVolumeBrl: tier.maxVolumeBrl, merchantFeePercentage: 0.01 })));
    }
    const receiver = await api('POST', '/receivers', {
      type: 'PF',
      document: randomCpf(),
      name: 'Cliente Saldos',
      email: 'saldos@example.com',
      walletAddress: '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T',
      limits: { nightTransactionsEnabled: true }, // the real clock may be in the night window
    });
    await api('POST', `/sandbox/receivers/${receiver.id}/kyc`, { decision: 'APPROVE' });
    await completedPayin(receiver.id, 150);
    const payout = await api('POST', '/payout', { receiverId: receiver.id, amountCrypto: 10, sourceToken: 'USDC' });
    await api('POST', `/sandbox/orders/${payout.id}/deposit`, { amountCrypto: '12.5' });
    await until(payout.id, 'COMPLETED');
    const [settlement] = (await api('POST', '/sandbox/settlements/run', {})).settlements;
    expect(settlement).toBeDefined();
    // The worker finds no settlement PIX key for the merchant: the settlement waits for one, owed.
    await waitFor(async () => ((await api('GET', '/ledger/settlements')).settlements[0].payoutStatus === 'AWAITING_PIX_KEY' ? true : undefined), 30_000);
    claimedPayinId = await completedPayin(receiver.id, 40);
    const claim = await api('POST', `/sandbox/orders/${claimedPayinId}/med-claim`, {});
    await api('POST', `/sandbox/disputes/${claim.id}/decision`, { outcome: 'ACCEPTED' });
    await api('POST', '/payin', { receiverId: receiver.id, amountBrl: 55.5 });
  }, 180_000);

  afterAll(async () => expect(await server.stop()).toBe(0));

  /** No platform account or holder in the page's text: the account codes, and `platform` as a word (pt-BR prose says "plataforma"). */
  async function expectNoPlatformAccounts(where: string, language: 'pt-BR' | 'en') {
    const text = await browser.page.locator('body').innerText();
    for (const code of PLATFORM_CODES) expect(text, `${where}: ${code}`).not.toContain(code);
    if (language === 'pt-BR') expect(text, where).not.toMatch(/\bplatform\b/i);
    // English prose may say "the platform"; a holder would be a table cell of its own.
    expect(await browser.page.locator('td, th').filter({ hasText: /^\s*platform\s*$/i }).count(), where).toBe(0);
  }

  it('shows every figure as the ledger holds it, in both languages, accessible while loading and loaded', async () => {
    await addSessionCookie(browser.context, server.baseUrl, ownerSession);
    const { page } = browser;
    const ledger = await ledgerBalances();
    const account = (code: string, currency = 'BRL') => ledger.get(`${code}:${currency}`) ?? decimal(0);
    const unsettled = account('merchant_fees_payable').negated();
    const owed = account('merchant_chargebacks_owed');
    const held = account('deposits_to_return', 'USDC').negated();
    // What settlements owe and their PIX has not paid yet (no settlement key here: all of it).
    const unpaid = account('merchant_settlements').negated();
    expect([unsettled.gt(0), owed.toFixed(2), held.toString(), unpaid.gt(0)]).toEqual([true, '40.00', '2.5', true]);
    const settlements = await api('GET', '/ledger/settlements?limit=100');
    const settledTotal = (settlements.settlements as Json[]).reduce((sum: ReturnType<typeof decimal>, s) => sum.plus(s.amountBrl), decimal(0));

    // The loading state: GET /ledger/balances held until released.
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/api\/v1\/ledger\/balances$/, async (route: Route) => {
      await gate;
      await route.continue();
    });
    await page.goto('/app/balances');
    await page.getByRole('heading', { level: 1, name: 'Saldos' }).waitFor();
    await page.getByRole('status').filter({ hasText: 'Carregando…' }).waitFor();
    await expectNoSeriousA11yViolations(page);
    await page.getByLabel('Idioma').selectOption('en');
    await page.getByRole('heading', { level: 1, name: 'Balances' }).waitFor();
    await page.getByRole('status').filter({ hasText: 'Loading…' }).waitFor();
    await expectNoSeriousA11yViolations(page);
    await page.getByLabel('Language').selectOption('pt-BR');
    release();

    const figure = async (testId: string) => plain(await page.getByTestId(testId).textContent());
    await page.getByTestId('balances-unsettled-fees').waitFor();
    expect(await figure('balances-unsettled-fees')).toBe(brlPt(unsettled));
    expect(await figure('balances-chargebacks-owed')).toBe(brlPt(owed));
    expect(await figure('balances-held-USDC')).toBe('2,5 USDC (de 1 saque)');
    expect(await figure('balances-settlements-count')).toBe(String(settlements.pagination.total));
    expect(await figure('balances-settlements-total')).toBe(brlPt(settledTotal));
    expect(await figure('balances-settlements-unpaid')).toBe(brlPt(unpaid));
    const rows = page.getByTestId('balances-settlements').locator('tbody tr');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(settlements.settlements.length);
    expect(plain(await rows.first().getByTestId('settlement-amount').textContent())).toBe(brlPt(decimal(settlements.settlements[0].amountBrl)));
    // Each settlement's PIX payment as the API lists it: its status, and its reference once paid.
    const STATUS_PT: Record<string, string> = { AWAITING_PIX_KEY: 'Aguardando chave PIX', PENDING: 'A enviar', SENDING: 'Enviando', SENT: 'Enviado', PAID: 'Pago', FAILED: 'Recusado' };
    for (const [i, settlement] of (settlements.settlements as Json[]).entries()) {
      const row = rows.nth(i);
      expect(plain(await row.getByTestId('settlement-payout-status').textContent())).toBe(STATUS_PT[settlement.payoutStatus]);
      expect(plain(await row.getByTestId('settlement-pix-reference').textContent())).toContain(settlement.pixEndToEndId ?? '—');
    }

    // Orders in flight: each stage's count and BRL sum as GET /orders lists them by status.
    for (const [stage, statuses] of Object.entries(STAGE_STATUSES)) {
      const orders = (await Promise.all(statuses.map((status) => api('GET', `/orders?type=${stage.split('-')[0]}&status=${status}&limit=100`)))).flatMap((answer) => answer.data as Json[]);
      expect(await figure(`in-flight-count-${stage}`), stage).toBe(String(orders.length));
      expect(await figure(`in-flight-brl-${stage}`), stage).toBe(brlPt(orders.reduce((sum: ReturnType<typeof decimal>, order) => sum.plus(order.amountBrl), decimal(0))));
      const tokens = orders.reduce((sum: ReturnType<typeof decimal>, order) => sum.plus(order.amountCrypto), decimal(0));
      expect(await figure(`in-flight-tokens-${stage}`), stage).toBe(orders.length ? `${tokens.toString().replace('.', ',')} USDC` : '—');
    }
    expect(await figure('in-flight-count-PAYIN-AWAITING_PIX')).toBe('1');
    expect(await figure('in-flight-brl-PAYIN-AWAITING_PIX')).toBe('R$ 55,50');

    await screenshot(page, 'balances');
    await expectNoSeriousA11yViolations(page);
    await expectNoPlatformAccounts('balances', 'pt-BR');
    await page.getByLabel('Idioma').selectOption('en');
    await page.getByRole('heading', { level: 1, name: 'Balances' }).waitFor();
    expect(await figure('balances-held-USDC')).toBe('2.5 USDC (from 1 payout)');
    expect(await figure('balances-chargebacks-owed')).toBe(`R$${owed.toFixed(2)}`);
    await expectNoSeriousA11yViolations(page);
    await expectNoPlatformAccounts('balances (en)', 'en');
    await page.getByLabel('Language').selectOption('pt-BR');
  });

  it('the overview cards show the same figures; no merchant page shows a platform account', async () => {
    await addSessionCookie(browser.context, server.baseUrl, ownerSession);
    const { page } = browser;
    const ledger = await ledgerBalances();
    await page.goto('/app');
    await page.getByRole('heading', { level: 1, name: 'Visão geral' }).waitFor();
    await page.getByTestId('card-unsettled-fees').waitFor();
    expect(plain(await page.getByTestId('card-unsettled-fees').textContent())).toBe(brlPt((ledger.get('merchant_fees_payable:BRL') ?? decimal(0)).negated()));
    expect(plain(await page.getByTestId('card-chargebacks-owed').textContent())).toBe('R$ 40,00');
    expect(plain(await page.getByTestId('card-held-deposits').textContent())).toBe('2,5 USDC');
    expect(plain(await page.getByTestId('card-in-flight').textContent())).toBe('1 pedido, R$ 55,50');
    expect(await page.getByRole('link', { name: 'Ver os saldos' }).getAttribute('href')).toBe('/app/balances');
    await expectNoSeriousA11yViolations(page);
    await expectNoPlatformAccounts('overview', 'pt-BR');

    // The fees page's ledger, and the charged-back order's timeline: the merchant's own legs only.
    await page.goto('/app/fees');
    await page.getByTestId('ledger-entries').waitFor();
    expect(await page.getByTestId('ledger-entries').textContent()).toContain('merchant_fees_payable');
    await expectNoPlatformAccounts('fees', 'pt-BR');
    await page.goto(`/app/orders/${claimedPayinId}`);
    const timeline = page.locator('section', { has: page.getByRole('heading', { name: 'Linha do tempo' }) });
    await timeline.locator('tbody tr[data-kind]').first().waitFor();
    expect(await timeline.textContent()).toContain('merchant_fees_payable');
    await expectNoPlatformAccounts('order', 'pt-BR');
    await page.getByLabel('Idioma').selectOption('en');
    await page.getByRole('heading', { name: 'Timeline' }).waitFor();
    await expectNoPlatformAccounts('order (en)', 'en');
    await page.getByLabel('Language').selectOption('pt-BR');
  });
});
