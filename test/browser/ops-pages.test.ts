/**
 * The back office's pages in Chromium against `node src/main.ts` (sandbox, PGlite): the demo
 * operator (ADMIN, no TOTP yet) is sent to the back office's sign-in, signs in, enrols TOTP on
 * the enrolment page (the secret read from the page, codes computed here) and lands on the KYC
 * queue; every page of the navigation is visited with axe (merchants with a new merchant's secret
 * shown once, a merchant with a new API key, its secret shown once, then revoked, treasury,
 * webhooks health, audit log, operators with a temporary password shown once); sign-out, then
 * sign-in with the code step. A merchant session in the same browser keeps working beside the
 * operator's: each side's writes carry their own CSRF token. A VIEWER reads a MED claim (opened
 * and defended through the sandbox and the merchant API) on the disputes list and its page. The
 * treasury's table per hot wallet, shown with two wallets (the API's answer given a second).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations, useBrowser } from '../helpers/browser.ts';
import { addSessionCookie, type ApiSession, type DashboardServer, nextTotpCode, signedInOwner, startDashboardServer, demoKeyApi } from '../helpers/dashboard-server.ts';
import { formatCpfText, randomCpf } from '../helpers/documents.ts';
import { addOperatorCookie, operatorInvitationToken, signedInOperator, TEST_ADMIN_TOKEN } from '../helpers/ops-browser.ts';

const WALLET = '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T';

describe('back office: sign-in, enrolment and every page', { timeout: 60_000 }, () => {
  let server: DashboardServer;
  let ownerSession: ApiSession;
  const browser = useBrowser({ baseURL: () => server.baseUrl });
  const FAVICON = /favicon\.ico/;

  beforeAll(async () => {
    server = await startDashboardServer({ ADMIN_TOKEN: TEST_ADMIN_TOKEN, LOG_LEVEL: 'info' }); // info: invitation links come through the log email port
    ({ session: ownerSession } = await signedInOwner(server));
  }, 120_000);
  afterAll(async () => {
    if (server) expect(await server.stop()).toBe(0);
  });

  it('signs the demo operator in, enrols TOTP, visits every page (axe), signs out and in again with a code', async () => {
    browser.allowProblems(FAVICON, /401/);
    const { page } = browser;
    const nav = page.getByRole('navigation', { name: 'Navegação da retaguarda' });
    const h1 = (name: string | RegExp) => page.getByRole('heading', { level: 1, name }).waitFor();

    await page.goto('/app/ops/kyc');
    await page.waitForURL(/\/app\/ops\/sign-in$/);
    await h1('Entrar na retaguarda');
    await expectNoSeriousA11yViolations(page);
    await page.getByLabel('E-mail').fill(server.operator.email);
    await page.getByLabel(/^Senha/).fill(server.operator.password);
    await page.getByRole('button', { name: 'Entrar' }).click();

    await page.waitForURL(/\/app\/ops\/sign-in\/totp$/);
    await h1('Ative a verificação em duas etapas');
    await page.getByRole('button', { name: 'Gerar chave' }).click();
    const secret = (await page.locator('[aria-labelledby="totp-secret-label"]').innerText()).trim();
    expect(secret).toMatch(/^[A-Z2-7]+=*$/);
    await expectNoSeriousA11yViolations(page);
    await page.getByLabel('Código do aplicativo').fill(await nextTotpCode(secret));
    await page.getByRole('button', { name: 'Confirmar' }).click();
    await page.waitForURL(/\/app\/ops\/kyc$/);
    await h1('Fila de KYC');
    await page.getByText('Nenhum recebedor nesta fila.').waitFor();
    await expectNoSeriousA11yViolations(page);

    // Merchants: a new one, its first API secret shown once.
    await nav.getByRole('link', { name: 'Lojistas' }).click();
    await h1('Lojistas');
    await page.getByLabel('Nome').fill('Loja da Retaguarda');
    await page.getByRole('button', { name: 'Criar lojista' }).click();
    const dialog = page.getByRole('dialog', { name: 'Chave de API de Loja da Retaguarda' });
    await dialog.waitFor();
    const shownSecret = await dialog.getByTestId('shown-secret').innerText();
    expect(shownSecret.length).toBeGreaterThan(20);
    await expectNoSeriousA11yViolations(page);
    await dialog.getByRole('button', { name: 'Já guardei, fechar' }).click();
    // Gone from the page, not only nameless: during its closing transition the dialog loses its title first.
    await page.locator('[role="dialog"]').waitFor({ state: 'detached' });
    expect(await page.content()).not.toContain(shownSecret);
    await page.getByRole('link', { name: 'Loja da Retaguarda' }).waitFor();
    await expectNoSeriousA11yViolations(page);

    // The demo merchant's page: its people and API keys (ids only).
    await page.getByRole('link', { name: 'Demo Merchant' }).click();
    await h1('Lojista Demo Merchant');
    await page.getByRole('table', { name: 'Pessoas' }).getByText(server.owner.email).waitFor();
    await page.getByRole('table', { name: 'Chaves de API' }).getByText(server.apiKey).waitFor();
    await expectNoSeriousA11yViolations(page);
    // A new API key for it: the secret shown once, then the key revoked after a confirmation.
    const keyForm = page.getByRole('region', { name: 'Criar uma chave' });
    await keyForm.getByLabel('Nome', { exact: true }).fill('Chave da retaguarda');
    await keyForm.getByRole('checkbox', { name: 'read', exact: true }).check();
    await keyForm.getByRole('button', { name: 'Criar chave' }).click();
    const keyDialog = page.getByRole('dialog', { name: 'Nova chave de API de Demo Merchant' });
    await keyDialog.waitFor();
    const keySecret = await keyDialog.getByTestId('shown-secret').innerText();
    expect(keySecret.length).toBeGreaterThan(20);
    await expectNoSeriousA11yViolations(page);
    await keyDialog.getByRole('button', { name: 'Já guardei, fechar' }).click();
    await page.locator('[role="dialog"]').waitFor({ state: 'detached' });
    expect(await page.content()).not.toContain(keySecret);
    await page.getByRole('button', { name: 'Revogar Chave da retaguarda' }).click();
    const revokeDialog = page.getByRole('dialog', { name: 'Revogar a chave?' });
    await revokeDialog.waitFor();
    await expectNoSeriousA11yViolations(page);
    await revokeDialog.getByRole('button', { name: 'Revogar', exact: true }).click();
    await revokeDialog.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Revogar Chave da retaguarda' }).waitFor({ state: 'detached' });

    await nav.getByRole('link', { name: 'Tesouraria' }).click();
    await h1('Tesouraria');
    await page.getByText(/^(\d+ lojistas?|Nenhum lojista), R\$/).waitFor();
    await expectNoSeriousA11yViolations(page);

    await nav.getByRole('link', { name: 'Webhooks' }).click();
    await h1('Saúde dos webhooks');
    await page.getByLabel('Incluir os saudáveis').check();
    await page.getByText(/Nenhum endpoint com problemas\.|Endpoints, os piores primeiro/).first().waitFor();
    await expectNoSeriousA11yViolations(page);

    // Operators: a new VIEWER invited (during the bootstrap one ADMIN may; no password on screen), who accepts the emailed link, then is disabled.
    await nav.getByRole('link', { name: 'Operadores' }).click();
    await h1('Operadores');
    const email = `novo-${Date.now()}@example.com`;
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Convidar operador' }).click();
    await page.getByText(`Convite enviado a ${email}`).waitFor();
    await expectNoSeriousA11yViolations(page);
    const token = await operatorInvitationToken(server, email);
    const accepted = await fetch(`${server.baseUrl}/api/v1/admin/auth/invitations/${token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ password: 'a long enough browser test password' }) });
    expect(accepted.status).toBe(201);
    await page.reload();
    await page.getByRole('button', { name: `Desativar ${email}` }).click();
    await page.getByRole('button', { name: `Reativar ${email}` }).waitFor();
    await expectNoSeriousA11yViolations(page);

    await nav.getByRole('link', { name: 'Registro de auditoria' }).click();
    await h1('Registro de auditoria');
    await page.getByRole('table', { name: 'Registros, os mais recentes primeiro' }).getByText('operator.update').first().waitFor();
    await expectNoSeriousA11yViolations(page);

    // Pages another area fills: the navigation reaches them.
    await nav.getByRole('link', { name: 'Pedidos parados' }).click();
    await h1('Pedidos parados');

    await page.getByRole('button', { name: 'Sair' }).click();
    await page.waitForURL(/\/app\/ops\/sign-in\?signedOut=true$/);
    await page.getByText('Você saiu.').waitFor();
    await page.getByLabel('E-mail').fill(server.operator.email);
    await page.getByLabel(/^Senha/).fill(server.operator.password);
    // One step: the code field is always on the form (the API never says the password was right).
    await page.getByLabel('Código de verificação').fill(await nextTotpCode(secret));
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await h1('Fila de KYC');
  }, 120_000); // every back-office page with axe: about 50 s on a loaded 2-core machine

  it('a merchant session and an operator session in one browser: each side writes with its own CSRF token, in one page load', async () => {
    // The invitation's 403 (FOUR_EYES_REQUIRED) is the answer this test expects, and checks below; the browser logs it.
    browser.allowProblems(FAVICON, /403 \(Forbidden\) \(http:\/\/127\.0\.0\.1:\d+\/api\/v1\/admin\/operators\)$/);
    const { page } = browser;
    const operator = await signedInOperator(server, 'ADMIN');
    await addSessionCookie(browser.context, server.baseUrl, ownerSession);
    await addOperatorCookie(browser.context, server.baseUrl, operator);

    // The back office first: its session (and CSRF token) is read.
    await page.goto('/app/ops/operators');
    await page.getByRole('heading', { level: 1, name: 'Operadores' }).waitFor();
    // Then the dashboard in the same page load (the router follows history, no reload): a merchant write.
    // The page's own history API, as a link click would use it (the test's tsconfig has no DOM types: the script is text).
    const go = (path: string) => page.evaluate(`window.history.pushState(window.history.state, '', ${JSON.stringify(path)}); window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));`);
    // A mark on the page's window: gone if anything reloaded the page.
    await page.evaluate('window.sameLoad = true');
    await go('/app/receivers/new');
    await page.getByRole('heading', { level: 1, name: 'Novo recebedor' }).waitFor();
    await page.getByRole('textbox', { name: 'CPF' }).fill(formatCpfText(randomCpf()));
    await page.getByLabel('Nome').fill('Carla Duas Sessões');
    await page.getByLabel('E-mail').fill('carla@example.com');
    await page.getByRole('button', { name: 'Criar recebedor' }).click();
    await page.getByRole('heading', { level: 1, name: 'Recebedor Carla Duas Sessões' }).waitFor();

    // Back to the back office, still the same load: an operator write.
    await go('/app/ops/operators');
    await page.getByRole('heading', { level: 1, name: 'Operadores' }).waitFor();
    const email = `duas-sessoes-${Date.now()}@example.com`;
    await page.getByLabel('E-mail').fill(email);
    // Past the bootstrap one ADMIN invites no one: the write reaches the API with its CSRF token and is refused for four-eyes, not for CSRF.
    const answer = page.waitForResponse((response) => response.url().endsWith('/api/v1/admin/operators') && response.request().method() === 'POST');
    await page.getByRole('button', { name: 'Convidar operador' }).click();
    const refused = await answer;
    expect(refused.status()).toBe(403);
    expect(((await refused.json()) as { details: unknown }).details).toEqual({ reason: 'FOUR_EYES_REQUIRED' });
    expect(await page.evaluate('window.sameLoad')).toBe(true);
  });
  it('a VIEWER finds a MED claim on the disputes page (deadline near) and reads its reason and defense', async () => {
    browser.allowProblems(FAVICON);
    const { page } = browser;
    const merchantApi = demoKeyApi(() => server);
    const receiver = await merchantApi('POST', '/receivers', {
      type: 'PF',
      document: randomCpf(),
      name: 'Pagador Reclamado',
      email: 'reclamado@example.com',
      walletAddress: WALLET,
      limits: { nightTransactionsEnabled: true }, // the real clock may be in the night window
    });
    await merchantApi('POST', `/sandbox/receivers/${receiver.id}/kyc`, { decision: 'APPROVE' });
    const payin = await merchantApi('POST', '/payin', { receiverId: receiver.id, amountBrl: 321.45 });
    await merchantApi('POST', `/sandbox/orders/${payin.id}/pix-payment`, {});
    const reason = 'Golpe do falso parente: o pagador nunca contratou esta loja';
    const dispute = await merchantApi('POST', `/sandbox/orders/${payin.id}/med-claim`, { reason, defenseHours: 12 });
    const viewer = await signedInOperator(server, 'VIEWER');
    await addOperatorCookie(browser.context, server.baseUrl, viewer);

    await page.goto('/app/ops/kyc');
    await page.getByRole('heading', { level: 1, name: 'Fila de KYC' }).waitFor();
    await page.getByRole('navigation', { name: 'Navegação da retaguarda' }).getByRole('link', { name: 'Reclamações MED' }).click();
    await page.getByRole('heading', { level: 1, name: 'Reclamações MED' }).waitFor();
    const row = page.locator(`tr[data-dispute-id="${dispute.id}"]`);
    await row.waitFor();
    for (const text of ['Aberta', 'Vence em menos de 24 h', 'Demo Merchant']) await row.getByText(text, { exact: true }).waitFor();
    await row.getByText(/R\$\s321,45/).waitFor();
    await row.getByRole('link', { name: String(payin.id) }).waitFor();
    await expectNoSeriousA11yViolations(page);
    // The status filter: the open ones list it, the accepted ones do not.
    await page.getByLabel('Situação').selectOption('OPEN');
    await page.waitForURL(/status=OPEN/);
    await row.waitFor();
    await page.getByLabel('Situação').selectOption('ACCEPTED');
    await page.getByText('Nenhuma reclamação com esta situação.').waitFor();
    await page.getByLabel('Situação').selectOption('');

    // The merchant defends, with one piece of evidence at an address and one without; a javascript: address is refused by the API.
    const justification = 'O pagador comprou e recebeu a mercadoria; segue o comprovante de entrega.';
    const delivery = { description: 'Comprovante de entrega', url: 'https://evidence.example.com/entrega.pdf' };
    await expect(merchantApi('POST', `/disputes/${dispute.id}/defense`, { justification, evidence: [delivery, { description: 'Endereço estranho', url: 'javascript:alert(1)' }] })).rejects.toThrow(/400 .*VALIDATION_ERROR/);
    await merchantApi('POST', `/disputes/${dispute.id}/defense`, { justification, evidence: [delivery, { description: 'Conversa com o cliente' }] });
    await row.locator('td').nth(8).click(); // anywhere on the row but its links
    await page.waitForURL(new RegExp(`/app/ops/disputes/${dispute.id}$`));
    await page.getByRole('heading', { level: 1, name: `Reclamação MED ${String(dispute.id)}` }).waitFor();
    await page.getByRole('region', { name: 'Motivo informado pelo PSP do pagador' }).getByText(reason).waitFor();
    const defense = page.getByRole('region', { name: 'Defesa do lojista' });
    await defense.getByText(justification).waitFor();
    const link = defense.getByRole('link', { name: 'https://evidence.example.com/entrega.pdf' });
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(await link.getAttribute('target')).toBe('_blank');
    await defense.getByText('Conversa com o cliente').waitFor();
    expect(await defense.getByRole('link').count()).toBe(1);
    await page.getByRole('region', { name: 'A reclamação' }).getByText('Defendida', { exact: true }).waitFor();
    await expectNoSeriousA11yViolations(page);
  });

  it("an order's page and the settlements due show the merchant's partner markup apart from its fees", async () => {
    browser.allowProblems(FAVICON);
    const { page } = browser;
    const merchantApi = demoKeyApi(() => server);
    await merchantApi('PUT', '/markups/PAYIN', { bps: 100, flatBrl: '0.50', capBrl: null });
    const receiver = await merchantApi('POST', '/receivers', { type: 'PF', document: randomCpf(), name: 'Cliente Markup', email: 'markup@example.com', walletAddress: WALLET, limits: { nightTransactionsEnabled: true } });
    await merchantApi('POST', `/sandbox/receivers/${receiver.id}/kyc`, { decision: 'APPROVE' });
    const payin = await merchantApi('POST', '/payin', { receiverId: receiver.id, amountBrl: 150 });
    // 1 % of 150.00 plus 0.50.
    expect(payin.markup).toEqual({ bps: 100, flatBrl: 0.5, capBrl: null, amountBrl: 2 });
    await merchantApi('POST', `/sandbox/orders/${payin.id}/pix-payment`, {});
    const operator = await signedInOperator(server, 'ADMIN');
    await addOperatorCookie(browser.context, server.baseUrl, operator);

    await page.goto(`/app/ops/orders/${payin.id}`);
    await page.getByRole('heading', { level: 1, name: `Pedido ${String(payin.id)}` }).waitFor();
    const amounts = page.getByRole('region', { name: 'Valores' });
    await expect.poll(async () => (await amounts.getByTestId('ops-order-markup').innerText()).replace(/\u00a0/g, ' ')).toBe('R$ 2,00 (100 pb + R$ 0,50, teto nenhum)');
    for (const value of [payin.platformFeeAmountBrl, payin.merchantFeeAmountBrl, payin.netAmountBrl]) {
      await amounts.getByText(`R$\u00a0${Number(value).toFixed(2).replace('.', ',')}`, { exact: true }).first().waitFor();
    }
    await expectNoSeriousA11yViolations(page);

    // Once completed, what a settlement run would pay the merchant has the markup in it, shown apart.
    const deadline = Date.now() + 30_000;
    while ((await merchantApi('GET', `/orders/${payin.id}`)).status !== 'COMPLETED' && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    const due = (await (await fetch(`${server.baseUrl}/api/v1/admin/settlements/due?limit=100`, { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } })).json()) as { data: Array<{ merchantName: string; markupBrl: string }> };
    const demo = due.data.find((row) => row.merchantName === 'Demo Merchant')!;
    expect(demo.markupBrl).toBe('2.00');
    await page.goto('/app/ops/treasury');
    await page.getByRole('heading', { level: 1, name: 'Tesouraria' }).waitFor();
    // The sandbox chain has no lookup tables: none, and no rent held in them.
    await page.getByText(/^0 tabelas, 0 contas, .*0.* de aluguel retido$/).waitFor();
    const table = page.getByRole('table', { name: 'Liquidações a pagar' });
    await table.getByRole('columnheader', { name: 'Dos quais markup' }).waitFor();
    const row = table.getByRole('row').filter({ has: page.getByRole('link', { name: 'Demo Merchant' }) });
    // Merchant, amount, then the markup inside it.
    await expect.poll(async () => (await row.getByRole('cell').nth(2).innerText()).replace(/\u00a0/g, ' ')).toBe('R$ 2,00');
    await expectNoSeriousA11yViolations(page);

    // With several hot wallets (decision 0057) a table per wallet follows the totals. This server
    // has one wallet (no table), so the browser gives the API's answer a second one.
    const perWallet = page.getByRole('table', { name: 'Por carteira da tesouraria' });
    expect(await perWallet.count()).toBe(0);
    const second = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';
    await page.route('**/api/v1/admin/treasury', async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { wallets: Array<{ wallet: number; address: string | null }> };
      await route.fulfill({ response, json: { ...body, wallets: [...body.wallets, { ...body.wallets[0]!, wallet: 2, address: second }] } });
    });
    await page.reload();
    await perWallet.getByRole('rowheader', { name: `2 · ${second}` }).first().waitFor();
    expect(await perWallet.getByRole('rowheader', { name: /^1 · / }).count()).toBeGreaterThan(0);
    await expectNoSeriousA11yViolations(page);
    await page.unroute('**/api/v1/admin/treasury');
  });
});
