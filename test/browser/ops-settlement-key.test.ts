/**
 * The settlement PIX key in Chromium (issue 42, decision 0044), on the service as `npm start` runs
 * it: operator A (FINANCE: treasury.manage) asks for the demo merchant's key in the back office's
 * merchant page; the page shows it awaiting approval, masked as the API answers operators; operator
 * B approves the SETTLEMENT_PIX_KEY proposal on the Approvals page; the merchant page then shows it
 * in use, and the merchant's balances page shows it read-only (in clear: the merchant's own). Axe
 * on each page in pt-BR and English; a VIEWER sees the form disabled.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations, screenshot, useBrowser } from '../helpers/browser.ts';
import { addSessionCookie, type ApiSession, type DashboardServer, signedInOwner, startDashboardServer } from '../helpers/dashboard-server.ts';
import { addOperatorCookie, type SignedInOperatorSession, signedInOperator, TEST_ADMIN_TOKEN } from '../helpers/ops-browser.ts';

const FAVICON = /favicon\.ico/;
const CNPJ = '11222333000181';
const MASKED = '**.222.333/****-**';

/** Axe on the page as shown, then again in English through the language switch (and back). */
async function axeInBothLanguages(page: Page) {
  await expectNoSeriousA11yViolations(page);
  await page.getByLabel('Idioma').selectOption('en');
  await page.locator('html[lang="en"]').waitFor();
  await expectNoSeriousA11yViolations(page);
  await page.getByLabel('Language').selectOption('pt-BR');
  await page.locator('html[lang="pt-BR"]').waitFor();
}

describe('a settlement PIX key asked for by one operator and approved by another', { timeout: 90_000 }, () => {
  let server: DashboardServer;
  let asker: SignedInOperatorSession;
  let approver: SignedInOperatorSession;
  let viewer: SignedInOperatorSession;
  let owner: ApiSession;
  const browser = useBrowser({ baseURL: () => server.baseUrl });

  beforeAll(async () => {
    server = await startDashboardServer({ ADMIN_TOKEN: TEST_ADMIN_TOKEN, LOG_LEVEL: 'info' }); // info: invitation links come through the log email port
    let signedIn: { session: ApiSession };
    [asker, approver, viewer, signedIn] = await Promise.all([signedInOperator(server, 'FINANCE'), signedInOperator(server, 'FINANCE'), signedInOperator(server, 'VIEWER'), signedInOwner(server)]);
    owner = signedIn.session;
  }, 300_000); // the run's first dashboard start builds its template DATA_DIR (dashboard-server.ts): slow on a loaded machine

  afterAll(async () => {
    if (server) expect(await server.stop()).toBe(0);
  });

  const keySection = (page: Page) => page.locator('section', { has: page.getByRole('heading', { level: 2, name: 'Chave PIX de liquidação' }) });

  it('operator A asks for the key in the merchant page: shown awaiting approval, masked', async () => {
    browser.allowProblems(FAVICON);
    await addOperatorCookie(browser.context, server.baseUrl, asker);
    const { page } = browser;
    await page.goto(`/app/ops/merchants/${server.merchantId}`);
    const section = keySection(page);
    await section.getByText('Nenhuma chave aprovada: as liquidações aguardam uma chave.').waitFor();
    await axeInBothLanguages(page);

    await section.getByLabel('Tipo de chave').selectOption('CNPJ');
    await section.getByRole('textbox', { name: 'Chave PIX' }).fill('11.222.333/0001-81');
    await section.getByRole('textbox', { name: 'CPF ou CNPJ do titular' }).fill(CNPJ);
    await section.getByRole('textbox', { name: 'Motivo' }).fill('Carta do lojista de 01/12/2026, chamado 4411');
    await section.getByRole('button', { name: 'Pedir a chave' }).click();
    await section.getByText('Chave pedida: aguardando a aprovação de outro operador.').waitFor();
    const state = section.getByTestId('ops-settlement-key-state');
    await state.getByRole('heading', { name: 'Aguardando aprovação' }).waitFor();
    await state.getByText(MASKED).first().waitFor();
    expect(await state.innerText()).not.toContain(CNPJ);
    await state.getByText('Nenhuma chave aprovada: as liquidações aguardam uma chave.').waitFor();
    await axeInBothLanguages(page);
    await screenshot(page, 'settlement-key-requested');
  });

  it('operator B approves it on the Approvals page; the merchant page shows it in use', async () => {
    browser.allowProblems(FAVICON);
    await addOperatorCookie(browser.context, server.baseUrl, approver);
    const { page } = browser;
    await page.goto('/app/ops/approvals');
    await page.getByRole('heading', { level: 1, name: 'Aprovações' }).waitFor();
    await page.getByRole('row', { name: new RegExp(asker.email) }).getByRole('link', { name: 'Chave PIX de liquidação' }).click();
    await page.getByRole('heading', { level: 1, name: 'Proposta: Chave PIX de liquidação' }).waitFor();
    await axeInBothLanguages(page);
    await page.getByRole('button', { name: 'Aprovar' }).click();
    await page.getByText(`Aprovada por ${approver.email} em`, { exact: false }).waitFor();

    await page.goto(`/app/ops/merchants/${server.merchantId}`);
    const state = keySection(page).getByTestId('ops-settlement-key-state');
    await state.getByRole('heading', { name: 'Chave em uso' }).waitFor();
    await state.getByText(MASKED).first().waitFor();
    await state.getByText('Aprovada em').waitFor();
    expect(await state.getByRole('heading', { name: 'Aguardando aprovação' }).count()).toBe(0);
    await axeInBothLanguages(page);
  });

  it("the merchant's balances page shows the key, read-only", async () => {
    browser.allowProblems(FAVICON);
    await addSessionCookie(browser.context, server.baseUrl, owner);
    const { page } = browser;
    await page.goto('/app/balances');
    const shown = page.getByTestId('balances-settlement-key');
    await shown.getByText(CNPJ, { exact: true }).waitFor();
    await shown.getByText(MASKED).waitFor();
    expect(await shown.locator('input, textarea, select, button').count()).toBe(0);
    await axeInBothLanguages(page);
    await screenshot(page, 'settlement-key-balances');
  });

  it('a VIEWER sees the form disabled', async () => {
    browser.allowProblems(FAVICON);
    await addOperatorCookie(browser.context, server.baseUrl, viewer);
    const { page } = browser;
    await page.goto(`/app/ops/merchants/${server.merchantId}`);
    const section = keySection(page);
    await section.getByText('Seu perfil não tem a permissão treasury.manage: o formulário está desativado.').waitFor();
    expect(await section.getByRole('button', { name: 'Pedir a chave' }).isDisabled()).toBe(true);
  });
});
