/**
 * The overview (/app) and fees & settlements (/app/fees) pages against the running service:
 * orders made to complete (and one to fail) through the API with the sandbox drivers, a
 * settlement run, then the pages show what GET /overview and the ledger say. The fee-tier editor
 * shows the API's own validation error beside the field, then saves a good value. axe on both
 * pages, and on the overview in English too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations, screenshot, useBrowser } from '../helpers/browser.ts';
import { addSessionCookie, type ApiSession, type DashboardServer, invitePerson, signedInOwner, signInByApi, startDashboardServer, demoKeyApi } from '../helpers/dashboard-server.ts';
import { randomCpf } from '../helpers/documents.ts';
import { waitFor } from '../helpers/processes.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Today in São Paulo, 'YYYY-MM-DD' (the overview's days are São Paulo days). */
/** Intl writes "R$\u00a0249,90": the non-breaking space compared as a plain one. */
const plain = (text: string | null) => (text ?? '').replace(/\u00a0/g, ' ');

const saoPauloToday = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());

describe('overview and fees pages', { timeout: 90_000 }, () => {
  let server: DashboardServer;
  let ownerSession: ApiSession;
  const browser = useBrowser({ baseURL: () => server.baseUrl });

  const api = demoKeyApi(() => server);
  const statusOf = async (id: string) => (await api('GET', `/orders/${id}`)).status as string;
  const until = (id: string, status: string) => waitFor(async () => ((await statusOf(id)) === status ? true : undefined), 20_000);

  async function completedPayin(receiverId: string, amountBrl: number): Promise<string> {
    const payin = await api('POST', '/payin', { receiverId, amountBrl });
    await api('POST', `/sandbox/orders/${payin.id}/pix-payment`, {});
    await until(payin.id, 'COMPLETED');
    return payin.id;
  }

  let failedId: string;

  beforeAll(async () => {
    server = await startDashboardServer({ LOG_LEVEL: 'info' }); // info: the VIEWER's invitation link comes through the log email port
    ({ session: ownerSession } = await signedInOwner(server));
    // A merchant fee of 1 % on PAYIN, so completed payins leave fees to settle.
    const tiers = (await api('GET', '/fee-tiers?orderType=PAYIN')) as unknown as Json[];
    await api(
      'PUT',
      '/fee-tiers/PAYIN',
      tiers.map((tier) => ({ minVolumeBrl: tier.minVolumeBrl, maxVolumeBrl: tier.maxVolumeBrl, merchantFeePercentage: 0.01 })),
    );
    const receiver = await api('POST', '/receivers', {
      type: 'PF',
      document: randomCpf(),
      name: 'Cliente Painel',
      email: 'painel@example.com',
      walletAddress: '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T',
      limits: { nightTransactionsEnabled: true }, // the real clock may be in the night window
    });
    await api('POST', `/sandbox/receivers/${receiver.id}/kyc`, { decision: 'APPROVE' });
    await completedPayin(receiver.id, 150);
    const run = await api('POST', '/sandbox/settlements/run', {});
    expect(run.settlements).toHaveLength(1);
    await completedPayin(receiver.id, 99.9);
    // A PAYOUT whose deposit is below the minimum order fails: the overview's attention list.
    const payout = await api('POST', '/payout', { receiverId: receiver.id, amountCrypto: 4, sourceToken: 'USDC' });
    await api('POST', `/sandbox/orders/${payout.id}/deposit`, { amountCrypto: 0.1 });
    await until(payout.id, 'FAILED');
    failedId = payout.id;
  }, 150_000);

  afterAll(async () => expect(await server.stop()).toBe(0));

  const signIn = async () => {
    await addSessionCookie(browser.context, server.baseUrl, ownerSession);
  };

  it('shows the overview: the chart with today\'s volume, the status counts, fees and the failed order; accessible in both languages', async () => {
    const overview = await api('GET', '/overview?days=30');
    await signIn();
    const page = browser.page;
    await page.goto('/app');
    await page.getByRole('heading', { level: 1, name: 'Visão geral' }).waitFor();

    const chart = page.getByRole('img', { name: /Gráfico de barras do volume por dia/ });
    await chart.waitFor();
    const today = saoPauloToday();
    expect(await page.locator(`[data-testid="volume-chart"] g[data-day="${today}"] rect[data-type="PAYIN"]`).count()).toBe(1);
    expect(await page.locator('[data-testid="volume-chart"] rect[data-type]').count()).toBe(
      overview.volumes.filter((volume: Json) => volume.amountBrl !== '0.00').length,
    );
    // The summary names the period's PAYIN total, 150 + 99.90, in the language's format.
    expect(plain(await chart.getAttribute('aria-label'))).toContain('PAYIN: R$ 249,90 em 2 pedidos');

    // The data table, shown on request, has today's row with the PAYIN volume.
    await page.getByRole('button', { name: 'Mostrar os dados em tabela' }).click();
    const [yyyy, mm, dd] = today.split('-');
    const row = page.getByRole('row', { name: new RegExp(`^${dd}/${mm}/${yyyy}`) });
    await expect.poll(async () => plain(await row.textContent())).toContain('R$ 249,90');

    const counts = page.getByTestId('status-counts');
    for (const { status, count } of overview.ordersByStatus as { status: string; count: number }[]) {
      const statusRow = counts.locator(`tr[data-status="${status}"]`);
      expect(await statusRow.locator('td').textContent(), status).toBe(String(count));
      expect(await statusRow.getByRole('link').getAttribute('href')).toBe(`/app/orders?status=${status}`);
    }
    expect(Object.fromEntries(overview.ordersByStatus.map((row: Json) => [row.status, row.count]))).toMatchObject({ COMPLETED: 2, FAILED: 1 });

    expect(plain(await page.getByTestId('fee-balance').textContent())).toBe(`R$ ${overview.fees.balance.replace('.', ',')}`);
    expect(plain(await page.getByTestId('chargebacks-owed').textContent())).toBe('R$ 0,00');
    expect(overview.fees.balance).not.toBe('0.00');
    const failed = page.getByTestId('failed-orders');
    expect(await failed.textContent()).toContain('Pedidos com falha no período: 1');
    expect(await failed.getByRole('link', { name: `Pedido ${failedId}` }).getAttribute('href')).toBe(`/app/orders/${failedId}`);

    await screenshot(page, 'overview');
    await expectNoSeriousA11yViolations(page);

    // The 7-day period is another GET /overview, kept in the address.
    await page.getByRole('radio', { name: 'Últimos 7 dias' }).check();
    await page.waitForURL(/\?days=7$/);
    const week = await api('GET', '/overview?days=7');
    const weekFrom = (week.from as string).split('-').reverse().join('/');
    await expect.poll(async () => plain(await chart.getAttribute('aria-label'))).toContain(`de ${weekFrom} a ${dd}/${mm}/${yyyy}. PAYIN: R$ 249,90 em 2 pedidos`);

    await page.getByLabel('Idioma').selectOption('en');
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    expect(plain(await page.getByRole('img', { name: /Bar chart of the volume by day/ }).getAttribute('aria-label'))).toContain('PAYIN: R$249.90 in 2 orders');
    await expectNoSeriousA11yViolations(page);
  });

  it('fees & settlements: the API refuses a bad fee beside its field, saves a good one; balance, settlements and ledger shown', async () => {
    await signIn();
    const page = browser.page;
    // The refused PUT is a 400 the browser logs as a failed resource: expected here.
    browser.allowProblems(/status of 400/);
    await page.goto('/app/fees');
    await page.getByRole('heading', { level: 1, name: 'Tarifas e liquidações' }).waitFor();

    const balance = await api('GET', '/ledger/fees/balance');
    await expect.poll(async () => plain(await page.getByTestId('fees-balance').textContent())).toBe(`R$ ${balance.balance.replace('.', ',')}`);
    expect(plain(await page.getByTestId('fees-chargebacks-owed').textContent())).toBe(`R$ ${balance.chargebacksOwed.replace('.', ',')}`);

    const settlements = page.getByTestId('settlements');
    await settlements.waitFor();
    expect(await settlements.locator('tbody tr').count()).toBe(1);
    const entries = await api('GET', '/ledger/entries?limit=10');
    const ledger = page.getByTestId('ledger-entries');
    await ledger.waitFor();
    expect(await ledger.locator(':scope > tbody > tr').count()).toBe(entries.entries.length);
    expect(await ledger.textContent()).toContain('merchant_fees_payable');

    await expectNoSeriousA11yViolations(page);

    await page.getByRole('button', { name: 'Editar faixas de PAYIN' }).click();
    const fee = page.getByLabel('Faixa 1: sua tarifa (%)');
    await expect.poll(() => fee.inputValue()).toBe('1');
    // Client-side: not a percentage at all.
    await fee.fill('abc');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await expect.poll(() => fee.getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByText('Use uma porcentagem de 0 a 100').count()).toBeGreaterThan(0);
    // 50 % reads as a percentage, but it is above the platform's maximum merchant fee: the API's error, beside the field.
    await fee.fill('50');
    await page.getByRole('button', { name: 'Salvar' }).click();
    const apiError = page.getByText(/must be a fraction from 0 to 0\.1/).first();
    await apiError.waitFor();
    expect(await fee.getAttribute('aria-invalid')).toBe('true');
    expect(await fee.getAttribute('aria-describedby')).toBeTruthy();
    await expectNoSeriousA11yViolations(page);

    await fee.fill('2,5');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Faixas de PAYIN salvas.').waitFor();
    const saved = (await api('GET', '/fee-tiers?orderType=PAYIN')) as unknown as Json[];
    expect(saved[0]!.merchantFeePercentage).toBe(0.025);
    await expect.poll(() => page.getByTestId('tiers-PAYIN').locator('tbody tr').first().textContent()).toContain('2,5%');
    await screenshot(page, 'fees');
  });

  it('partner markup: the form refuses a bad value (here and by the API, beside its field), saves a good one; the order page shows the markup; axe in both languages', async () => {
    await signIn();
    const page = browser.page;
    browser.allowProblems(/status of 400/);
    await page.goto('/app/fees');
    const bps = page.getByLabel('PAYIN: pontos-base (100 = 1 %)');
    await bps.waitFor();
    expect(await bps.inputValue()).toBe('0');
    await bps.fill('abc');
    await page.getByRole('button', { name: 'Aplicar markup de PAYIN' }).click();
    await expect.poll(() => bps.getAttribute('aria-invalid')).toBe('true');
    // A cap below the flat amount reads as amounts; the API refuses it beside the cap.
    await bps.fill('100');
    await page.getByLabel('PAYIN: valor fixo (BRL)').fill('2,00');
    const cap = page.getByLabel('PAYIN: teto (BRL, vazio = sem teto)');
    await cap.fill('1,00');
    await page.getByRole('button', { name: 'Aplicar markup de PAYIN' }).click();
    await page.getByText(/must be at least flatBrl/).waitFor();
    expect(await cap.getAttribute('aria-invalid')).toBe('true');
    await expectNoSeriousA11yViolations(page);
    await cap.fill('');
    await page.getByRole('button', { name: 'Aplicar markup de PAYIN' }).click();
    await page.getByText('Markup de PAYIN salvo.').waitFor();
    expect(((await api('GET', '/markups')) as unknown as Json[])[0]).toMatchObject({ orderType: 'PAYIN', bps: 100, flatBrl: 2, capBrl: null });

    const receivers = await api('GET', '/receivers');
    const id = await completedPayin((receivers.data as Json[])[0]!.id, 100);
    // 1 % of 100.00 plus 2.00.
    expect((await api('GET', `/orders/${id}`)).markup).toMatchObject({ amountBrl: 3 });
    await page.goto(`/app/orders/${id}`);
    await expect.poll(async () => plain(await page.getByTestId('order-markup').textContent())).toBe('R$ 3,00');
    await expectNoSeriousA11yViolations(page);
    await page.getByLabel('Idioma').selectOption('en');
    await expect.poll(async () => plain(await page.getByTestId('order-markup').textContent())).toBe('R$3.00');
    await page.goto('/app/fees');
    await page.getByLabel('PAYIN: basis points (100 = 1 %)').waitFor();
    await expectNoSeriousA11yViolations(page);
    await api('PUT', '/markups/PAYIN', { bps: 0, flatBrl: 0, capBrl: null });
  });

  it('a VIEWER sees the tiers read-only, and the API refuses its PUT with 403', async () => {
    const viewer = await invitePerson(server, ownerSession, 'viewer@demo.example', 'VIEWER');
    const session = await signInByApi(server.baseUrl, viewer);
    await addSessionCookie(browser.context, server.baseUrl, session);
    const page = browser.page;
    await page.goto('/app/fees');
    await page.getByTestId('tiers-PAYIN').waitFor();
    await page.getByText('Somente leitura').waitFor();
    expect(await page.getByRole('button', { name: /Editar faixas/ }).count()).toBe(0);
    const refused = await fetch(`${server.baseUrl}/api/v1/fee-tiers/PAYIN`, {
      method: 'PUT',
      headers: { cookie: session.cookie, 'x-csrf-token': session.csrfToken, 'content-type': 'application/json' },
      body: JSON.stringify([{ minVolumeBrl: 0, maxVolumeBrl: null, merchantFeePercentage: 0.05 }]),
    });
    expect(refused.status).toBe(403);
    await expectNoSeriousA11yViolations(page);
  });
});
