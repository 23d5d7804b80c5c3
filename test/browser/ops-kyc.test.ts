/**
 * The back office's KYC review in Chromium against `node src/main.ts` (sandbox, PGlite): the demo
 * merchant registers a webhook endpoint on loopback and submits two receivers' KYC through its
 * API; a COMPLIANCE operator approves one from the queue page (the receiver becomes ACTIVE and
 * receiver.kyc_approved reaches the merchant's endpoint), then suspends and reactivates it; a
 * VIEWER sees the buttons disabled and the API answers 403 to the same call; the audit log page
 * lists the approval with actor, time, target and before/after. Axe on the queue, the KYC file and the audit log; screenshots of the
 * queue and the log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations, screenshot, useBrowser } from '../helpers/browser.ts';
import { type DashboardServer, startDashboardServer } from '../helpers/dashboard-server.ts';
import { randomCpf } from '../helpers/documents.ts';
import { addOperatorCookie, operatorFetch, signedInOperator, type SignedInOperatorSession, TEST_ADMIN_TOKEN, webhookSink } from '../helpers/ops-browser.ts';

describe('back office: KYC review', { timeout: 60_000 }, () => {
  let server: DashboardServer;
  let sink: Awaited<ReturnType<typeof webhookSink>>;
  let compliance: SignedInOperatorSession;
  let viewer: SignedInOperatorSession;
  const receivers: { id: string; name: string }[] = [];
  const browser = useBrowser({ baseURL: () => server.baseUrl });
  const FAVICON = /favicon\.ico/;

  /** The demo merchant's API, by its key. */
  const merchantApi = async (method: string, path: string, body?: unknown) => {
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
    sink = await webhookSink();
    server = await startDashboardServer({ ADMIN_TOKEN: TEST_ADMIN_TOKEN, LOG_LEVEL: 'info' }); // info: invitation links come through the log email port
    await merchantApi('POST', '/webhook/endpoints', { url: sink.url, description: 'back-office browser test' });
    for (const name of ['Ana Revisada', 'Bruno Aguardando']) {
      const receiver = await merchantApi('POST', '/receivers', { type: 'PF', document: randomCpf(), name, email: 'kyc@example.com' });
      await merchantApi('POST', `/receivers/${String(receiver.id)}/kyc`, {
        birthDate: '1990-04-12',
        motherName: 'Maria Teste',
        documents: [
          { type: 'ID_FRONT', reference: `s3://kyc/${name}/id-front.jpg` },
          { type: 'SELFIE', reference: `s3://kyc/${name}/selfie.jpg` },
        ],
      });
      receivers.push({ id: String(receiver.id), name });
    }
    [compliance, viewer] = await Promise.all([signedInOperator(server, 'COMPLIANCE'), signedInOperator(server, 'VIEWER')]);
  }, 120_000);

  afterAll(async () => {
    sink?.server.close();
    if (server) expect(await server.stop()).toBe(0);
  });

  it('a COMPLIANCE operator approves a KYC from the queue: the receiver becomes ACTIVE and receiver.kyc_approved reaches the merchant', async () => {
    browser.allowProblems(FAVICON);
    await addOperatorCookie(browser.context, server.baseUrl, compliance);
    const { page } = browser;
    await page.goto('/app/ops');
    await page.waitForURL(/\/app\/ops\/kyc$/);
    await page.getByRole('heading', { level: 1, name: 'Fila de KYC' }).waitFor();
    const queue = page.getByRole('table', { name: 'Recebedores, os que esperam há mais tempo primeiro' });
    const row = queue.getByRole('row', { name: /Ana Revisada/ });
    await row.waitFor();
    expect(await row.innerText()).toMatch(/Demo[\s\S]*Enviado[\s\S]*\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}[\s\S]*(min|h)/i);
    await expectNoSeriousA11yViolations(page);
    await screenshot(page, 'kyc-queue');

    await row.getByRole('link', { name: 'Ana Revisada' }).click();
    await page.getByRole('heading', { level: 1, name: 'KYC de Ana Revisada' }).waitFor();
    await page.getByRole('table', { name: /Documentos de/ }).getByText('s3://kyc/Ana Revisada/selfie.jpg').waitFor();
    await expectNoSeriousA11yViolations(page);

    await page.getByRole('button', { name: 'Aprovar KYC' }).click();
    await page.getByRole('status').filter({ hasText: 'Decisão registrada: KYC Aprovado.' }).waitFor();
    // The history now holds the decision, by this operator's email.
    await page.getByRole('table', { name: 'Histórico' }).getByRole('row', { name: new RegExp(`${compliance.email}.*receiver\\.kyc_approve`) }).waitFor();
    await expect.poll(() => page.getByRole('button', { name: 'Aprovar KYC' }).isDisabled()).toBe(true);

    const receiver = await merchantApi('GET', `/receivers/${receivers[0]!.id}`);
    expect({ status: receiver.status, kycStatus: receiver.kycStatus }).toEqual({ status: 'ACTIVE', kycStatus: 'APPROVED' });
    await expect
      .poll(() => sink.received.map((body) => JSON.parse(body) as { event?: string; receiverId?: string }).find((event) => event.event === 'receiver.kyc_approved' && event.receiverId === receivers[0]!.id), { timeout: 20_000 })
      .toBeDefined();

    // The receiver's status: suspended (after a confirmation), then reactivated.
    await page.getByRole('button', { name: 'Suspender recebedor' }).click();
    const suspend = page.getByRole('dialog', { name: 'Suspender Ana Revisada?' });
    await suspend.waitFor();
    await expectNoSeriousA11yViolations(page);
    await suspend.getByRole('button', { name: 'Suspender recebedor' }).click();
    await page.getByRole('status').filter({ hasText: 'Situação do recebedor agora: Suspenso.' }).waitFor();
    expect((await merchantApi('GET', `/receivers/${receivers[0]!.id}`)).status).toBe('SUSPENDED');
    await page.getByRole('button', { name: 'Reativar recebedor' }).click();
    await page.getByRole('dialog', { name: 'Reativar Ana Revisada?' }).getByRole('button', { name: 'Reativar recebedor' }).click();
    await page.getByRole('status').filter({ hasText: 'Situação do recebedor agora: Ativo.' }).waitFor();
    expect((await merchantApi('GET', `/receivers/${receivers[0]!.id}`)).status).toBe('ACTIVE');
  });

  it('a VIEWER sees the decision buttons disabled, and the API refuses the same call (403)', async () => {
    browser.allowProblems(FAVICON);
    await addOperatorCookie(browser.context, server.baseUrl, viewer);
    const { page } = browser;
    await page.goto(`/app/ops/kyc/${receivers[1]!.id}`);
    await page.getByRole('heading', { level: 1, name: 'KYC de Bruno Aguardando' }).waitFor();
    await page.getByText('Seu perfil não permite esta ação.').first().waitFor();
    for (const name of ['Iniciar análise', 'Aprovar KYC', 'Recusar KYC', 'Bloquear recebedor']) expect(await page.getByRole('button', { name }).isDisabled(), name).toBe(true);
    expect(await page.getByLabel(/Motivo da recusa/).isDisabled()).toBe(true);

    const refused = await operatorFetch(server.baseUrl, viewer, 'POST', `/receivers/${receivers[1]!.id}/kyc/approve`);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { details?: { reason?: string } }).details?.reason).toBe('ROLE_NOT_ALLOWED');
    expect((await merchantApi('GET', `/receivers/${receivers[1]!.id}`)).kycStatus).toBe('SUBMITTED');
  });

  it('the audit log lists the approval with actor, time, target and before/after', async () => {
    browser.allowProblems(FAVICON);
    await addOperatorCookie(browser.context, server.baseUrl, viewer);
    const { page } = browser;
    await page.goto('/app/ops/audit-log');
    await page.getByRole('heading', { level: 1, name: 'Registro de auditoria' }).waitFor();
    await page.getByRole('textbox', { name: 'Ação' }).fill('receiver.kyc_approve');
    await page.getByRole('button', { name: 'Filtrar' }).click();
    const log = page.getByRole('table', { name: 'Registros, os mais recentes primeiro' });
    const row = log.getByRole('row', { name: new RegExp(receivers[0]!.id) });
    await row.waitFor();
    const text = await row.innerText();
    expect(text).toContain(compliance.email);
    expect(text).toMatch(/\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/);
    expect(text).toContain(`receiver ${receivers[0]!.id}`);
    expect(text).toMatch(/Antes: SUBMITTED[\s\S]*Depois: APPROVED/);
    expect(await log.getByRole('row').count()).toBe(2); // the header and the one approval
    // A VIEWER may read the log but not export it (reports.export): no link. COMPLIANCE's carries the same filter.
    expect(await page.getByRole('link', { name: 'Exportar CSV' }).count()).toBe(0);
    await addOperatorCookie(browser.context, server.baseUrl, compliance);
    await page.reload();
    await page.getByRole('textbox', { name: 'Ação' }).fill('receiver.kyc_approve');
    await page.getByRole('button', { name: 'Filtrar' }).click();
    expect(await page.getByRole('link', { name: 'Exportar CSV' }).getAttribute('href')).toBe('/api/v1/admin/audit-log/export?action=receiver.kyc_approve');
    await expectNoSeriousA11yViolations(page);
    await screenshot(page, 'audit-log');
  });
});
