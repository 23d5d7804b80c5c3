/**
 * The receivers and team pages in Chromium against `node src/main.ts` (sandbox, PGlite, demo
 * owner): a receiver created with the form (the API's CPF check shown at its field), its limits
 * and today's usage, the sandbox KYC approval; a VIEWER invited from the Team page, its emailed
 * link (the log email catcher's output) accepted in the browser, the VIEWER signed in and refused
 * an ADMIN action by the page (disabled) and by the API (403); the owner's role change, and both
 * changes in the audit log. axe finds no serious or critical violation on any of these pages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations, screenshot, useBrowser } from '../helpers/browser.ts';
import { addSessionCookie, type ApiSession, type DashboardServer, signedInOwner, startDashboardServer } from '../helpers/dashboard-server.ts';
import { formatCpfText, randomCpf } from '../helpers/documents.ts';

describe('receivers and team pages', { timeout: 90_000 }, () => {
  let server: DashboardServer;
  let ownerSession: ApiSession;
  const browser = useBrowser({ baseURL: () => server.baseUrl });
  const viewer = { email: `viewer-${Date.now()}@example.com`, password: 'a long viewer password' };

  // info: the log email catcher writes the invitation (its link included) at info level.
  beforeAll(async () => {
    server = await startDashboardServer({ LOG_LEVEL: 'info' });
    ({ session: ownerSession } = await signedInOwner(server));
  }, 120_000);
  afterAll(async () => expect(await server?.stop()).toBe(0));

  // The dashboard's index.html names no icon, so Chromium asks for /favicon.ico (404): not these pages' doing.
  const FAVICON = /favicon\.ico/;

  const asOwner = async () => addSessionCookie(browser.context, server.baseUrl, ownerSession);

  /** The token of the last invitation link emailed to `to`, from the service's log. */
  async function invitationToken(to: string): Promise<string> {
    return expect
      .poll(() => {
        const lines = server.output().split('\n').filter((line) => line.includes(to) && line.includes('accept-invitation#'));
        return lines.at(-1)?.match(/\/app\/accept-invitation#([A-Za-z0-9_-]{43})/)?.[1];
      }, { timeout: 10_000 })
      .toMatch(/^[A-Za-z0-9_-]{43}$/)
      .then(() => server.output().split('\n').filter((line) => line.includes(to) && line.includes('accept-invitation#')).at(-1)!.match(/accept-invitation#([A-Za-z0-9_-]{43})/)![1]!);
  }

  it('creates a receiver with the form, shows it in the list and its detail with limits and usage, approves its KYC in the sandbox', async () => {
    browser.allowProblems(FAVICON);
    await asOwner();
    const { page } = browser;
    await page.goto('/app/receivers');
    await page.getByRole('heading', { name: 'Recebedores', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Novo recebedor' }).click();
    await page.getByRole('heading', { name: 'Novo recebedor', level: 1 }).waitFor();
    await expectNoSeriousA11yViolations(page);

    // A CPF with wrong check digits: the API's VALIDATION_ERROR is shown at the field.
    browser.allowProblems(/400/);
    await page.getByRole('textbox', { name: 'CPF' }).fill('123.456.789-00');
    await page.getByLabel('Nome').fill('Joana Teste');
    await page.getByLabel('E-mail').fill('joana@example.com');
    await page.getByRole('button', { name: 'Criar recebedor' }).click();
    const documentField = page.getByRole('textbox', { name: 'CPF' });
    await expect.poll(() => documentField.getAttribute('aria-invalid')).toBe('true');
    await expectNoSeriousA11yViolations(page);

    const cpf = randomCpf();
    await documentField.fill(formatCpfText(cpf));
    await page.getByRole('button', { name: 'Criar recebedor' }).click();
    await page.getByRole('heading', { name: 'Recebedor Joana Teste', level: 1 }).waitFor();
    await page.getByText(`CPF ${cpf}`).waitFor();
    const usage = page.getByRole('table', { name: /Limites e uso em/ });
    await usage.waitFor();
    await expect.poll(() => usage.getByRole('row', { name: /Pedidos por dia/ }).innerText()).toMatch(/Sem limite\s+0/);

    // Limits through the form (payments.write): the table shows them with today's usage.
    await page.getByRole('button', { name: 'Alterar limites' }).click();
    await page.getByLabel('Limite diário (BRL)').fill('1500,50');
    await page.getByLabel('Pedidos por dia').fill('10');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await expect.poll(() => usage.getByRole('row', { name: /Limite diário/ }).innerText()).toMatch(/R\$\s1\.500,50\s+R\$\s0,00/);
    await expect.poll(() => usage.getByRole('row', { name: /Pedidos por dia/ }).innerText()).toMatch(/10\s+0/);

    // The demo server is a sandbox (GET /merchant says so): its KYC driver approves.
    await page.getByRole('button', { name: 'Aprovar KYC (sandbox)' }).click();
    await page.getByText('Aprovado').first().waitFor();
    await expect.poll(() => page.getByRole('button', { name: 'Aprovar KYC (sandbox)' }).count()).toBe(0);
    await screenshot(page, 'receiver-detail');
    await expectNoSeriousA11yViolations(page);

    await page.getByRole('link', { name: /Voltar/ }).click();
    await page.getByRole('link', { name: 'Joana Teste' }).waitFor();
    await expectNoSeriousA11yViolations(page);
  });

  it('invites a VIEWER from the Team page; the link is accepted in the browser; the VIEWER is refused by the page and by the API', async () => {
    browser.allowProblems(FAVICON);
    await asOwner();
    const { page } = browser;
    await page.goto('/app/team');
    await page.getByRole('heading', { name: 'Equipe', level: 1 }).waitFor();
    await page.getByRole('table', { name: /\d+ pessoas? na equipe/ }).getByText(server.owner.email).waitFor();
    const invite = page.getByRole('region', { name: 'Convidar' });
    await invite.getByLabel('E-mail').fill(viewer.email);
    await invite.getByLabel('Papel').selectOption('VIEWER');
    await invite.getByRole('button', { name: 'Enviar convite' }).click();
    await page.getByText(`Convite enviado para ${viewer.email}`).waitFor();
    await page.getByRole('table', { name: 'Convites ainda não aceitos' }).getByText(viewer.email).waitFor();
    await screenshot(page, 'team-owner');
    await expectNoSeriousA11yViolations(page);

    // The emailed link, opened signed out: the token in the fragment, then out of the address bar.
    const token = await invitationToken(viewer.email);
    await browser.context.clearCookies();
    await page.goto(`/app/accept-invitation#${token}`);
    await page.getByRole('heading', { name: 'Aceitar o convite', level: 1 }).waitFor();
    expect(new URL(page.url()).hash).toBe('');
    await expectNoSeriousA11yViolations(page);
    await page.getByLabel(/^Nova senha/).fill(viewer.password);
    await page.getByLabel('Repita a senha').fill(viewer.password);
    await page.getByRole('button', { name: 'Criar minha conta' }).click();
    await page.getByText('Conta criada.').waitFor();
    await page.getByRole('link', { name: 'Ir para o login' }).click();

    await page.getByLabel('E-mail').fill(viewer.email);
    await page.getByLabel(/^Senha/).fill(viewer.password);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.getByRole('heading', { name: 'Visão geral', level: 1 }).waitFor();
    await page.goto('/app/team');
    await page.getByRole('heading', { name: 'Equipe', level: 1 }).waitFor();
    await page.getByText('Só donos e administradores').waitFor();
    expect(await page.getByRole('button', { name: 'Enviar convite' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: `Remover ${server.owner.email}` }).isDisabled()).toBe(true);
    expect(await page.getByRole('region', { name: 'Registro de auditoria' }).count()).toBe(0);
    await screenshot(page, 'team-viewer');
    await expectNoSeriousA11yViolations(page);

    // The page is not the guard: the same session forcing the ADMIN action is 403 at the API.
    browser.allowProblems(/403/);
    const forced = await page.evaluate(async () => {
      const { csrfToken } = (await (await fetch('/api/v1/auth/sessions/current')).json()) as { csrfToken: string };
      const response = await fetch('/api/v1/users/invitations', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': csrfToken },
        body: JSON.stringify({ email: 'someone-else@example.com', role: 'ADMIN' }),
      });
      return { status: response.status, body: (await response.json()) as { error: string; details?: unknown } };
    });
    expect(forced.status).toBe(403);
    expect(forced.body.error).toBe('FORBIDDEN');
    expect(forced.body.details).toEqual({ reason: 'ROLE_NOT_ALLOWED', permission: 'users.manage' });
  });

  it('the owner changes the new member role and sees the invitation and the role change in the audit log', async () => {
    browser.allowProblems(FAVICON);
    await asOwner();
    const { page } = browser;
    await page.goto('/app/team');
    const role = page.getByLabel(`Papel de ${viewer.email}`);
    await role.waitFor();
    expect(await role.inputValue()).toBe('VIEWER');
    await role.selectOption('DEVELOPER');
    const log = page.getByRole('table', { name: /Mudanças na equipe/ });
    await log.getByRole('row', { name: /user\.set_role/ }).filter({ hasText: viewer.email }).waitFor();
    await log.getByRole('row', { name: /user\.invite/ }).filter({ hasText: viewer.email }).waitFor();
    expect(await log.getByRole('row', { name: /user\.set_role/ }).first().innerText()).toMatch(/VIEWER[\s\S]*DEVELOPER/);
    expect(await role.inputValue()).toBe('DEVELOPER');

    // The action filter narrows the log to role changes.
    await page.getByRole('search').getByLabel('Ação').selectOption('user.set_role');
    await expect.poll(() => log.getByRole('row', { name: /user\.invite/ }).count()).toBe(0);
    await log.getByRole('row', { name: /user\.set_role/ }).first().waitFor();
    await screenshot(page, 'team-audit-log');
    await expectNoSeriousA11yViolations(page);
  });
});
