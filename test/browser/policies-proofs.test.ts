/**
 * Policies and wallet proofs in the merchant dashboard (issue 42), in Chromium against the service
 * as `npm start` runs it: a COMPLIANCE operator sets the demo merchant's wallet ownership policy to
 * LIMITED with a cap (and FIRST_PARTY payers) through the back-office API; the merchant's Policies
 * page, reached from the menu, shows each policy in words, the cap in reais, in pt-BR and English,
 * axe-clean while it loads and once loaded. On a receiver's page the merchant asks for a challenge
 * for a wallet whose key the test holds (@solana/kit), copies the exact text shown, sees a
 * signature by another key refused in words, then pastes the wallet's own signature of that text
 * and sees the wallet among the proven ones (and the API agrees). A VIEWER sees the proven wallets
 * but not the form, as the API refuses it the write.
 */
import { generateKeyPairSigner, type KeyPairSigner } from '@solana/kit';
import type { Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeBase58 } from '../../src/lib/base58.ts';
import { expectNoSeriousA11yViolations, screenshot, useBrowser } from '../helpers/browser.ts';
import { addSessionCookie, type ApiSession, type DashboardServer, invitePerson, signInByApi, signedInOwner, startDashboardServer } from '../helpers/dashboard-server.ts';
import { randomCpf } from '../helpers/documents.ts';
import { operatorFetch, type SignedInOperatorSession, signedInOperator, TEST_ADMIN_TOKEN } from '../helpers/ops-browser.ts';

/** The wallet's Ed25519 signature of `text` (its UTF-8 bytes), base58: what a wallet's signMessage gives. */
async function signText(signer: KeyPairSigner, text: string): Promise<string> {
  const [signatures] = await signer.signMessages([{ content: new TextEncoder().encode(text), signatures: {} }]);
  return encodeBase58(signatures![signer.address]!);
}

/** Holds the page's requests matching `pattern` until the answer is released, so a loading state stays on screen. */
function hold(page: Page, pattern: RegExp): () => void {
  let release = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  void page.route(pattern, async (route: Route) => {
    await gate;
    await route.continue();
  });
  return release;
}

describe('policies and wallet proofs pages', { timeout: 120_000 }, () => {
  let server: DashboardServer;
  let ownerSession: ApiSession;
  let compliance: SignedInOperatorSession;
  let wallet: KeyPairSigner;
  let receiverId = '';
  const browser = useBrowser({ baseURL: () => server.baseUrl });

  const apiCall = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${server.baseUrl}/api/v1${path}`, {
      method,
      headers: { 'x-api-key': server.apiKey, 'x-api-secret': server.apiSecret, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return JSON.parse(text) as Record<string, unknown>;
  };

  beforeAll(async () => {
    server = await startDashboardServer({ ADMIN_TOKEN: TEST_ADMIN_TOKEN, LOG_LEVEL: 'info' }); // info: invitation links come through the log email port
    ({ session: ownerSession } = await signedInOwner(server));
    compliance = await signedInOperator(server, 'COMPLIANCE');
    wallet = await generateKeyPairSigner();
    const receiver = await apiCall('POST', '/receivers', { type: 'PF', document: randomCpf(), name: 'Rita Carteira', email: 'rita@example.com', walletAddress: wallet.address });
    receiverId = String(receiver.id);
  }, 180_000);

  afterAll(async () => {
    if (server) expect(await server.stop()).toBe(0);
  });

  it("shows the policies the operator set, the LIMITED cap in reais, in pt-BR and English, while loading and loaded", async () => {
    const set = await operatorFetch(server.baseUrl, compliance, 'PUT', `/merchants/${server.merchantId}/policies`, {
      walletOwnershipPolicy: 'LIMITED',
      unprovenWalletLimitBrl: '1234.56',
      payerPolicy: 'FIRST_PARTY',
      reason: 'browser test: compliance review',
    });
    expect(set.status, await set.clone().text()).toBe(200);
    expect(await set.json()).toMatchObject({ walletOwnershipPolicy: 'LIMITED', unprovenWalletLimitBrl: 1234.56, payerPolicy: 'FIRST_PARTY', destinationPolicy: 'RECEIVER_ONLY' });

    await addSessionCookie(browser.context, server.baseUrl, ownerSession);
    const { page } = browser;
    await page.goto('/app/receivers');
    await page.getByRole('heading', { level: 1, name: 'Recebedores' }).waitFor();
    let release = hold(page, /\/api\/v1\/merchant\/policies$/);
    await page.getByRole('navigation', { name: 'Navegação principal' }).getByRole('link', { name: 'Políticas' }).click();
    await page.getByRole('heading', { level: 1, name: 'Políticas' }).waitFor();
    const loading = page.getByRole('status').filter({ hasText: 'Carregando…' });
    await loading.waitFor();
    await expectNoSeriousA11yViolations(page);
    release();

    const payer = page.getByTestId('policy-payer');
    const walletPolicy = page.getByTestId('policy-wallet');
    const destination = page.getByTestId('policy-destination');
    await walletPolicy.waitFor();
    expect(await loading.count()).toBe(0);
    expect(await page.getByTestId('policy-wallet-value').textContent()).toBe('Aceitas até um limite diário');
    expect(await page.getByTestId('policy-payer-value').textContent()).toBe('Somente o recebedor');
    expect(await page.getByTestId('policy-destination-value').textContent()).toBe('Somente o recebedor');
    const brl = (language: string) => new Intl.NumberFormat(language, { style: 'currency', currency: 'BRL' }).format(1234.56);
    await walletPolicy.getByText(`Limite por carteira não comprovada, por dia: ${brl('pt-BR')}`, { exact: true }).waitFor();
    await payer.getByText(/é devolvido a quem pagou/).first().waitFor();
    await destination.getByRole('heading', { name: 'Para onde o dinheiro pode ir (política de destino)' }).waitFor();
    expect(await page.getByText('Quem altera: os operadores da plataforma.').count()).toBe(3);
    // The page is read-only: nothing on it writes.
    expect(await page.locator('main form, main input, main textarea').count()).toBe(0);
    await walletPolicy.getByRole('link', { name: 'Ir para os recebedores' }).waitFor();
    await expectNoSeriousA11yViolations(page);
    await screenshot(page, 'policies');

    // English, loading first (the answer held again on reload), then loaded.
    await page.getByLabel('Idioma').selectOption('en');
    await page.getByRole('heading', { level: 1, name: 'Policies' }).waitFor();
    release = hold(page, /\/api\/v1\/merchant\/policies$/);
    await page.reload();
    await page.getByRole('status').filter({ hasText: 'Loading…' }).waitFor();
    await expectNoSeriousA11yViolations(page);
    release();
    await walletPolicy.waitFor();
    expect(await page.getByTestId('policy-wallet-value').textContent()).toBe('Accepted up to a daily limit');
    expect(await page.getByTestId('policy-payer-value').textContent()).toBe('Only the receiver');
    await walletPolicy.getByText(`Limit per unproven wallet, per day: ${brl('en')}`, { exact: true }).waitFor();
    await expectNoSeriousA11yViolations(page);
  });

  it('starts a proof on a receiver page: the challenge to copy, a wrong signature refused in words, the right one proves the wallet', async () => {
    browser.allowProblems(/status of 422/);
    await addSessionCookie(browser.context, server.baseUrl, ownerSession);
    const { page } = browser;
    await page.goto(`/app/receivers/${receiverId}`);
    await page.getByRole('heading', { level: 1, name: 'Recebedor Rita Carteira' }).waitFor();
    const section = page.locator('section', { has: page.getByRole('heading', { name: 'Carteiras comprovadas', exact: true }) });
    await section.getByText('Nenhuma carteira comprovada ainda.').waitFor();

    const address = section.getByLabel('Endereço da carteira (Solana)', { exact: true });
    expect(await address.inputValue()).toBe(wallet.address); // the receiver's own wallet, offered
    await section.getByRole('button', { name: 'Gerar desafio' }).click();
    const message = section.getByLabel('Texto a assinar', { exact: true });
    await message.waitFor();
    const text = await message.inputValue();
    expect(text).toMatch(new RegExp(`wants you to sign in with your Solana account:\\n${wallet.address}\\n`));
    expect(text).toContain(`I own this Solana wallet and accept it as the wallet of receiver ${receiverId}.`);
    const expiresAt = text.match(/Expiration Time: (\S+)/)![1]!;
    const shownExpiry = new Intl.DateTimeFormat('pt-BR', { timeZone: 'America/Sao_Paulo', dateStyle: 'short', timeStyle: 'short' }).format(new Date(expiresAt));
    expect(await section.getByTestId('challenge-expiry').innerText()).toContain(shownExpiry.replace(',', ''));
    await section.getByRole('button', { name: 'Copiar texto' }).waitFor();
    await expectNoSeriousA11yViolations(page);

    // Another key's signature of the same text: the API's WALLET_SIGNATURE_INVALID, in words.
    const impostor = await generateKeyPairSigner();
    const signature = section.getByLabel('Assinatura (base58)');
    await signature.fill(await signText(impostor, text));
    await section.getByRole('button', { name: 'Enviar comprovação' }).click();
    await section.getByRole('alert').getByText(`A assinatura não confere: ela precisa ser da carteira ${wallet.address} sobre o texto exato acima.`, { exact: false }).waitFor();
    await expectNoSeriousA11yViolations(page);

    // An expired challenge's refusal is shown in words too (the answer stubbed: the real one takes 10 minutes).
    await page.route(/\/wallet-ownership\/proofs$/, (route) =>
      route.fulfill({ status: 422, contentType: 'application/json', body: JSON.stringify({ error: 'CHALLENGE_EXPIRED', message: 'This challenge has expired', requestId: 'req-expired' }) }),
    );
    await section.getByRole('button', { name: 'Enviar comprovação' }).click();
    await section.getByRole('alert').getByText('O desafio expirou antes da assinatura ser enviada.', { exact: false }).waitFor();
    await section.getByText('Código da requisição: req-expired').waitFor();
    await page.unroute(/\/wallet-ownership\/proofs$/);

    // The wallet's own signature of the exact text shown: proven, listed, and the API agrees.
    await signature.fill(await signText(wallet, text));
    await section.getByRole('button', { name: 'Enviar comprovação' }).click();
    await section.getByRole('status').filter({ hasText: `Carteira ${wallet.address} comprovada.` }).waitFor();
    const row = section.getByRole('table', { name: 'Carteiras que o recebedor comprovou serem dele' }).getByRole('row').filter({ hasText: wallet.address });
    await row.getByText('Assinatura da carteira', { exact: true }).waitFor();
    expect(await section.getByLabel('Texto a assinar').count()).toBe(0);
    const proven = (await apiCall('GET', `/receivers/${receiverId}/wallet-ownership`)) as { data: { walletAddress: string; method: string }[] };
    expect(proven.data).toEqual([expect.objectContaining({ walletAddress: wallet.address, method: 'SIWS_ED25519' })]);
    await expectNoSeriousA11yViolations(page);
    await screenshot(page, 'receiver-wallet-proofs');

    // English: the list while it loads (held on reload), then the proven wallet in English words.
    await page.getByLabel('Idioma').selectOption('en');
    const release = hold(page, /\/wallet-ownership$/);
    await page.reload();
    const sectionEn = page.locator('section', { has: page.getByRole('heading', { name: 'Proven wallets', exact: true }) });
    await sectionEn.getByRole('status').filter({ hasText: 'Loading…' }).waitFor();
    await expectNoSeriousA11yViolations(page);
    release();
    await sectionEn.getByRole('row').filter({ hasText: wallet.address }).getByText('Wallet signature', { exact: true }).waitFor();
    await sectionEn.getByRole('button', { name: 'Make a challenge' }).click();
    await sectionEn.getByLabel('Text to sign', { exact: true }).waitFor();
    await expectNoSeriousA11yViolations(page);
  });

  it('shows a VIEWER the proven wallets but not the form (the API refuses it the write)', async () => {
    const person = await invitePerson(server, ownerSession, `viewer-${Date.now()}@example.com`, 'VIEWER');
    const viewer = await signInByApi(server.baseUrl, person);
    await addSessionCookie(browser.context, server.baseUrl, viewer);
    const { page } = browser;
    await page.goto(`/app/receivers/${receiverId}`);
    const section = page.locator('section', { has: page.getByRole('heading', { name: 'Carteiras comprovadas', exact: true }) });
    await section.getByRole('row').filter({ hasText: wallet.address }).waitFor();
    expect(await section.getByRole('button', { name: 'Gerar desafio' }).count()).toBe(0);
    expect(await section.locator('form').count()).toBe(0);
    const refused = await fetch(`${server.baseUrl}/api/v1/receivers/${receiverId}/wallet-ownership/challenges`, {
      method: 'POST',
      headers: { cookie: viewer.cookie, 'x-csrf-token': viewer.csrfToken, 'content-type': 'application/json' },
      body: JSON.stringify({ walletAddress: wallet.address }),
    });
    expect(refused.status).toBe(403);
    await page.goto('/app/policies');
    await page.getByTestId('policy-wallet-value').waitFor();
    await expectNoSeriousA11yViolations(page);
  });
});
