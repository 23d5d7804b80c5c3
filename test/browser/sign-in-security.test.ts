/**
 * Issue 28's security proofs in the browser (docs/architecture/dashboard.md#security-tests): the
 * API tests (test/modules/users/) show each rule on the wire; these show that the dashboard, as a
 * person uses it in Chromium, keeps it: TOTP at sign-in, no session fixation, CSRF refused from the
 * page and from other origins, sessions ended by a password change, lockout shown, no secret on
 * any page or in the log, another merchant's ids refused. One service for the file; each test
 * makes the people it changes (a locked or re-passworded demo owner would break the others). The
 * demo owner signs in with a code once (the first test, in the page) and the tests share that
 * session: a code signs in once, so each further sign-in would wait for the next 30 s step.
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations, screenshot, useBrowser } from '../helpers/browser.ts';
import { decodeDrawnQr } from '../helpers/qr.ts';
import { addSessionCookie, type ApiSession, type DashboardServer, invitePerson, nextTotpCode, signedInOwner, signInByApi, startDashboardServer, totpCode } from '../helpers/dashboard-server.ts';

const ADMIN_TOKEN = 'security-test-admin-token-0123456789abcdef';
/** Every page of routes.tsx that needs no id, visited by the secrets test (which runs axe on each too). */
const DASHBOARD_ROUTES = [
  '/app',
  '/app/orders',
  '/app/orders/new',
  '/app/receivers',
  '/app/receivers/new',
  '/app/disputes',
  '/app/developers/api-keys',
  '/app/developers/webhooks',
  '/app/developers/webhooks/deliveries',
  '/app/developers/events',
  '/app/fees',
  '/app/team',
  '/app/account',
];

type Person = { email: string; password: string };

describe('sign-in and security in the browser', { timeout: 90_000 }, () => {
  let server: DashboardServer;
  let shared: ApiSession | undefined;
  const browser = useBrowser({ baseURL: () => server.baseUrl });
  /** Secrets seen by the tests, each of which must appear on no page and in no log line. */
  const secrets = new Map<string, string>();

  beforeAll(async () => {
    server = await startDashboardServer({
      // The per-account lockout is what the lockout test shows: the per-address limits (30 failures
      // and 60 sign-ins a minute by default) would otherwise answer 429 first as the file goes on.
      AUTH_FAILURE_LIMIT_PER_MINUTE: '1000',
      TOKEN_RATE_LIMIT_PER_MINUTE: '1000',
      // Every line the service can write, so "no secret in the log" covers the most.
      LOG_LEVEL: 'debug',
      ADMIN_TOKEN,
    });
    secrets.set('the demo API secret', server.apiSecret);
    secrets.set("the demo owner's password", server.owner.password);
  }, 400_000);
  afterAll(async () => expect(await server?.stop()).toBe(0));

  /** The API as curl would call it, with a session's cookie and CSRF token or the demo API key. */
  async function api(method: string, path: string, auth: ApiSession | 'api-key' | null, body?: unknown) {
    const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
    if (auth === 'api-key') Object.assign(headers, { 'x-api-key': server.apiKey, 'x-api-secret': server.apiSecret });
    else if (auth) Object.assign(headers, { cookie: auth.cookie, 'x-csrf-token': auth.csrfToken });
    const response = await fetch(`${server.baseUrl}/api/v1${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : null) as any }; // eslint-disable-line @typescript-eslint/no-explicit-any
  }

  /** Whom a bare `sid` value authenticates: the status of GET /auth/sessions/current, and its email. */
  async function whoIs(sid: string): Promise<{ status: number; email?: string }> {
    const answer = await api('GET', '/auth/sessions/current', { cookie: `sid=${sid}`, csrfToken: '' });
    return { status: answer.status, ...(answer.status === 200 ? { email: answer.body.user.email as string } : {}) };
  }

  /** The API session of a browser context's `sid` cookie (its CSRF token from GET /auth/sessions/current, as a page reads it). */
  async function sessionOf(context: BrowserContext): Promise<ApiSession> {
    const cookie = `sid=${(await context.cookies(server.baseUrl)).find((each) => each.name === 'sid')?.value}`;
    const current = await api('GET', '/auth/sessions/current', { cookie, csrfToken: '' });
    expect(current.status).toBe(200);
    return { cookie, csrfToken: current.body.csrfToken as string };
  }

  /** The demo owner's shared session: the first test's, or one enrolled and signed in by the API when that test does not run. */
  async function ownerSession(): Promise<ApiSession> {
    if (!shared) {
      const { totpSecret, session } = await signedInOwner(server);
      secrets.set("the demo owner's TOTP secret", totpSecret);
      shared = session;
    }
    return shared;
  }

  /** A new user of the demo merchant, invited by the owner, who accepted with a password of their own. */
  async function newPerson(role: 'DEVELOPER' | 'VIEWER'): Promise<Person> {
    const email = `${role.toLowerCase()}-${randomBytes(4).toString('hex')}@demo.example`;
    const person = await invitePerson(server, await ownerSession(), email, role);
    secrets.set(`${email}'s password`, person.password);
    return person;
  }

  /** Fills the sign-in page (the code too, with `totpSecret`: one step) and submits. Answers the sign-in response's status. */
  async function signInInPage(page: Page, person: Person, totpSecret?: string): Promise<number> {
    if (!page.url().includes('/app/sign-in')) await page.goto('/app/sign-in');
    await page.getByLabel('E-mail').fill(person.email);
    await page.getByLabel(/^Senha/).fill(person.password);
    if (totpSecret) await page.getByLabel('Código de verificação').fill(await nextTotpCode(totpSecret));
    const answer = page.waitForResponse((response) => response.url().endsWith('/api/v1/auth/sessions') && response.request().method() === 'POST');
    await page.getByRole('button', { name: 'Entrar' }).click();
    return (await answer).status();
  }

  /** Signed in: the overview (/app), whose first heading is its title. */
  async function onOverview(page: Page): Promise<void> {
    await page.waitForURL(/\/app\/?$/);
    await page.getByRole('heading', { level: 1, name: 'Visão geral' }).waitFor();
  }

  const sidOf = async (page: Page) => (await page.context().cookies(server.baseUrl)).find((cookie) => cookie.name === 'sid')?.value;

  it('signs in with TOTP in the page: the first sign-in enrols (secret read from the page), then password and code', async () => {
    const { page } = browser;
    browser.allowProblems(/401/); // the wrong code's 401
    await page.goto('/app');
    await page.waitForURL(/\/app\/sign-in$/);
    await page.getByRole('heading', { name: 'Entrar' }).waitFor();
    await expectNoSeriousA11yViolations(page);

    expect(await signInInPage(page, server.owner)).toBe(201);
    await page.waitForURL(/\/app\/sign-in\/totp$/);
    await page.getByRole('heading', { name: 'Ative a verificação em duas etapas' }).waitFor();
    await page.getByRole('button', { name: 'Gerar chave' }).click();
    const secret = (await page.locator('[aria-labelledby="totp-secret-label"]').textContent())?.trim() ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await expect.poll(() => page.locator('[aria-labelledby="totp-uri-label"]').textContent()).toContain(`secret=${secret}`);
    // The QR code to scan, drawn in the page (no image service sees the secret): it says the URI.
    const uri = (await page.locator('[aria-labelledby="totp-uri-label"]').textContent())?.trim() ?? '';
    const qr = page.getByRole('img', { name: 'Código QR: aponte a câmera do aplicativo autenticador' });
    expect(decodeDrawnQr({ viewBox: (await qr.getAttribute('viewBox')) ?? '', path: (await qr.locator('path').getAttribute('d')) ?? '' })).toBe(uri);
    await expectNoSeriousA11yViolations(page);
    await page.getByLabel('Código do aplicativo').fill(await nextTotpCode(secret));
    await page.getByRole('button', { name: 'Confirmar' }).click();
    await onOverview(page);
    secrets.set("the demo owner's TOTP secret", secret);

    // Without a code the API refuses the password alone now, with the answer a wrong password gets.
    const alone = (await api('POST', '/auth/sessions', null, server.owner)).body;
    expect(alone).toMatchObject({ error: 'UNAUTHORIZED' });
    expect(alone.details).toBeUndefined();

    await page.getByRole('button', { name: 'Sair' }).click();
    await page.getByText('Você saiu.').waitFor();
    expect(await sidOf(page)).toBeUndefined();
    await page.getByLabel('E-mail').fill(server.owner.email);
    await page.getByLabel(/^Senha/).fill(server.owner.password);
    // A wrong code is refused like a wrong password; the current one signs in.
    await page.getByLabel('Código de verificação').fill(totpCode(secret, new Date(Date.now() - 10 * 60_000)));
    await screenshot(page, 'sign-in');
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.getByText('E-mail, senha ou código incorretos.').waitFor();
    await page.getByLabel('Código de verificação').fill(await nextTotpCode(secret));
    await page.getByRole('button', { name: 'Entrar' }).click();
    await onOverview(page);

    await page.getByRole('link', { name: 'Minha conta' }).click();
    await page.getByRole('heading', { name: 'Minha conta', level: 1 }).waitFor();
    await page.getByText('Ativada: cada entrada pede o código do aplicativo autenticador.').waitFor();
    await page.getByText(server.owner.email, { exact: true }).waitFor();
    await page.getByText('Proprietário').waitFor();
    await page.locator('[data-testid="session-row"][aria-current="true"]').waitFor();
    await screenshot(page, 'account');
    await expectNoSeriousA11yViolations(page);
    shared = await sessionOf(browser.context);
  });

  it('session fixation: a sid planted before sign-in authenticates nothing and is replaced by a new one', async () => {
    const { page, context } = browser;
    browser.allowProblems(/401/);
    const victim = await newPerson('DEVELOPER');
    // A made-up value, as an attacker on a sibling host or an injected script would plant it.
    const planted = randomBytes(32).toString('base64url');
    await context.addCookies([{ name: 'sid', value: planted, url: server.baseUrl, httpOnly: true, sameSite: 'Strict' }]);
    await page.goto('/app/orders');
    await page.waitForURL(/\/app\/sign-in$/);
    expect(await whoIs(planted)).toEqual({ status: 401 });

    expect(await signInInPage(page, victim)).toBe(201);
    await onOverview(page);
    const issued = await sidOf(page);
    expect(issued).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(issued).not.toBe(planted);
    expect(await whoIs(planted)).toEqual({ status: 401 });
    expect(await whoIs(issued!)).toEqual({ status: 200, email: victim.email });

    // A live session of the attacker's own, planted: signing in replaces it, and it stays the attacker's.
    const attacker = await newPerson('VIEWER');
    const attackerSid = (await signInByApi(server.baseUrl, attacker)).cookie.slice('sid='.length);
    await page.getByRole('button', { name: 'Sair' }).click();
    await page.getByText('Você saiu.').waitFor();
    await context.addCookies([{ name: 'sid', value: attackerSid, url: server.baseUrl, httpOnly: true, sameSite: 'Strict' }]);
    expect(await signInInPage(page, victim)).toBe(201);
    await onOverview(page);
    const after = await sidOf(page);
    expect(after).not.toBe(attackerSid);
    expect(await whoIs(attackerSid)).toEqual({ status: 200, email: attacker.email });
    expect(await whoIs(after!)).toEqual({ status: 200, email: victim.email });
  });

  it('CSRF: a cookie-authenticated write without X-CSRF-Token, or with a wrong one, is 403 from the page itself; with it, it works', async () => {
    const { page, context } = browser;
    browser.allowProblems(/403/);
    const person = await newPerson('DEVELOPER');
    const session = await signInByApi(server.baseUrl, person);
    await addSessionCookie(context, server.baseUrl, session);
    await page.goto('/app');
    await onOverview(page);
    const endpoints = async () => (await api('GET', '/webhook/endpoints', session)).body.data.length as number;
    const before = await endpoints();

    const answers = await page.evaluate(async ({ token, currentPassword }) => {
      const write = async (path: string, body: unknown, headers: Record<string, string>) => {
        const response = await fetch(`/api/v1${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
        return { status: response.status, body: (await response.json()) as Record<string, unknown> };
      };
      const endpoint = { url: 'http://127.0.0.1:9/hooks/csrf' };
      return {
        missing: await write('/webhook/endpoints', endpoint, {}),
        wrong: await write('/webhook/endpoints', endpoint, { 'x-csrf-token': 'A'.repeat(token.length) }),
        password: await write('/users/me/password', { currentPassword, newPassword: 'a new password chosen by someone else' }, {}),
        right: await write('/webhook/endpoints', endpoint, { 'x-csrf-token': token }),
      };
    }, { token: session.csrfToken, currentPassword: person.password });
    for (const refused of [answers.missing, answers.wrong, answers.password]) {
      expect(refused).toMatchObject({ status: 403, body: { error: 'FORBIDDEN', details: { reason: 'CSRF_TOKEN_MISSING_OR_INVALID' } } });
    }
    expect(answers.right.status).toBe(201);
    secrets.set("the CSRF test's webhook secret", answers.right.body.secret as string);
    expect(await endpoints()).toBe(before + 1);
    // The refused password change (with the right current password) changed nothing: the old one still signs in.
    await signInByApi(server.baseUrl, person);
  });

  it('CSRF: a form on another origin posting to the dashboard: cross-site carries no cookie (SameSite=Strict, 401); same-site without the token is 403', async () => {
    const { page, context } = browser;
    // The attacker's page and the JSON answers its forms land on are not the dashboard's pages:
    // they name no icon, so Chromium asks their origins for /favicon.ico (a 404).
    browser.allowProblems(/40[13]/, /\/favicon\.ico/);
    const session = await ownerSession();
    await addSessionCookie(context, server.baseUrl, session);
    const endpoints = async () => (await api('GET', '/webhook/endpoints', session)).body.data.length as number;
    const before = await endpoints();
    // The JSON-in-a-text/plain-form trick: the body parses as the endpoint the attacker wants.
    const attack = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Prize</title></head><body><main><h1>You won</h1>
      <form method="POST" action="${server.baseUrl}/api/v1/webhook/endpoints" enctype="text/plain">
        <input type="hidden" name='{"url":"http://127.0.0.1:9/attacker","description":"' value='"}'>
        <button>Claim</button></form></main></body></html>`;
    // 127.0.0.2 is another site than the dashboard's 127.0.0.1; another port of 127.0.0.1 is another origin of the same site.
    for (const [host, expected] of [
      ['127.0.0.2', { status: 401, error: 'UNAUTHORIZED' }],
      ['127.0.0.1', { status: 403, error: 'FORBIDDEN' }],
    ] as const) {
      const attacker = await serveOnce(host, attack);
      try {
        await page.goto(attacker.url);
        const answer = page.waitForResponse((response) => response.url().endsWith('/api/v1/webhook/endpoints'));
        await page.getByRole('button', { name: 'Claim' }).click();
        const response = await answer;
        const sentCookie = (await response.request().allHeaders()).cookie ?? '';
        expect({ host, status: response.status(), error: ((await response.json()) as { error: string }).error }).toEqual({ host, ...expected });
        expect(sentCookie.includes('sid='), `${host}: cookie sent`).toBe(host === '127.0.0.1');
      } finally {
        attacker.server.close();
      }
    }
    expect(await endpoints()).toBe(before);
  });

  it('a password changed in the Account page ends the other sessions: the other browser lands on sign-in', async () => {
    const { page } = browser;
    browser.allowProblems(/401/, /400 \(Bad Request\).*\/users\/me\/password/); // the wrong current password
    const person = await newPerson('DEVELOPER');
    const other = await browser.browser.newContext({ baseURL: server.baseUrl, locale: 'pt-BR', timezoneId: 'America/Sao_Paulo' });
    try {
      const otherPage = await other.newPage();
      expect(await signInInPage(otherPage, person)).toBe(201);
      await onOverview(otherPage);
      expect(await signInInPage(page, person)).toBe(201);
      await onOverview(page);

      await page.goto('/app/account');
      await page.getByRole('heading', { name: 'Alterar a senha' }).waitFor();
      await expect.poll(() => page.getByTestId('session-row').count()).toBe(2);
      const newPassword = `nova senha ${randomBytes(6).toString('hex')}`;
      secrets.set(`${person.email}'s new password`, newPassword);
      // A wrong current password is shown on its field; nothing changes.
      await page.getByLabel(/^Senha atual/).fill('not the current password');
      await page.getByLabel(/^Nova senha/).fill(newPassword);
      await page.getByLabel(/^Repita a nova senha/).fill(newPassword);
      await page.getByRole('button', { name: 'Alterar a senha' }).click();
      await page.getByText('A senha atual está incorreta.').waitFor();
      await page.getByLabel(/^Senha atual/).fill(person.password);
      await page.getByRole('button', { name: 'Alterar a senha' }).click();
      await page.getByText('Senha alterada. Todas as suas outras sessões foram encerradas; esta continua aberta.').waitFor();
      await expect.poll(() => page.getByTestId('session-row').count()).toBe(1);
      await page.getByText('Só esta sessão está aberta.').waitFor();
      await expectNoSeriousA11yViolations(page);

      const refused = otherPage.waitForResponse((response) => response.url().endsWith('/api/v1/auth/sessions/current'));
      await otherPage.goto('/app/orders');
      expect((await refused).status()).toBe(401);
      await otherPage.waitForURL(/\/app\/sign-in$/);
      await otherPage.getByRole('heading', { name: 'Entrar' }).waitFor();
      // The old password is gone; the new one signs in.
      expect((await api('POST', '/auth/sessions', null, person)).status).toBe(401);
      expect(await signInInPage(otherPage, { email: person.email, password: newPassword })).toBe(201);
    } finally {
      await other.close();
    }
  });

  it('throttling: repeated wrong passwords in the sign-in page lead to the wait message (429 with Retry-After), even for the right password', async () => {
    const { page } = browser;
    browser.allowProblems(/401/, /429/);
    const person = await newPerson('VIEWER');
    await page.goto('/app/sign-in');
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect(await signInInPage(page, { email: person.email, password: `wrong password ${attempt}` })).toBe(401);
      await page.getByText('E-mail, senha ou código incorretos.').waitFor();
    }
    const locked = page.waitForResponse((response) => response.url().endsWith('/api/v1/auth/sessions'));
    await page.getByLabel(/^Senha/).fill(person.password);
    await page.getByRole('button', { name: 'Entrar' }).click();
    const response = await locked;
    const body = (await response.json()) as { error: string; message: string; details: { retryAfterSeconds: number } };
    expect(response.status()).toBe(429);
    expect(body.error).toBe('RATE_LIMITED');
    expect(body.message).toMatch(/for this email from this address/);
    expect(Number(response.headers()['retry-after'])).toBe(body.details.retryAfterSeconds);
    expect(body.details.retryAfterSeconds).toBeGreaterThan(0);
    expect(body.details.retryAfterSeconds).toBeLessThanOrEqual(30);
    await page.getByText(/^Muitas tentativas para este e-mail a partir deste endereço\. Tente de novo em \d+ s\.$/).waitFor();
    await expectNoSeriousA11yViolations(page);
    expect(page.url()).toMatch(/\/app\/sign-in$/);
  });

  it("another merchant's ids: the receiver page answers not found (404), as for an id that does not exist", async () => {
    const { page, context } = browser;
    browser.allowProblems(/404/);
    const other = await fetch(`${server.baseUrl}/api/v1/admin/merchants`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Another Merchant' }),
    }).then(async (response) => (await response.json()) as { credential: { apiKey: string; apiSecret: string } });
    secrets.set("the other merchant's API secret", other.credential.apiSecret);
    const theirs = await fetch(`${server.baseUrl}/api/v1/receivers`, {
      method: 'POST',
      headers: { 'x-api-key': other.credential.apiKey, 'x-api-secret': other.credential.apiSecret, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'PF', document: '52998224725', name: 'Their Receiver', email: 'their@example.com' }),
    }).then(async (response) => (await response.json()) as { id: string });
    expect(theirs.id).toMatch(/^[0-9a-f-]{36}$/);

    await addSessionCookie(context, server.baseUrl, await ownerSession());
    for (const id of [theirs.id, '00000000-0000-7000-8000-000000000000']) {
      const answer = page.waitForResponse((response) => response.url().endsWith(`/api/v1/receivers/${id}`));
      await page.goto(`/app/receivers/${id}`);
      const response = await answer;
      expect({ status: response.status(), error: ((await response.json()) as { error: string }).error }).toEqual({ status: 404, error: 'NOT_FOUND' });
      await page.getByRole('alert').getByText('Não encontrado.').first().waitFor();
      expect(await page.getByText('Their Receiver').count()).toBe(0);
    }
  });

  it('no secret on any page or in the log after its creation (API and webhook secrets, passwords, the TOTP secret, session ids), and no serious axe violation on any page', async () => {
    const { page, context } = browser;
    const session = await ownerSession();
    const key = await api('POST', '/credentials', session, { label: 'security test' });
    expect(key.status, JSON.stringify(key.body)).toBe(201);
    secrets.set('the new API secret', key.body.apiSecret);
    const endpoint = await api('POST', '/webhook/endpoints', session, { url: 'http://127.0.0.1:9/hooks/secrets' });
    expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
    secrets.set('the new webhook secret', endpoint.body.secret);
    secrets.set("the page's session id", session.cookie.slice('sid='.length));
    await addSessionCookie(context, server.baseUrl, session);

    for (const route of DASHBOARD_ROUTES) {
      await page.goto(route);
      await page.locator('main h1').first().waitFor();
      await page.waitForLoadState('networkidle');
      const content = await page.content();
      const storage = await page.evaluate(() => JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage }, cookie: (globalThis as unknown as { document: { cookie: string } }).document.cookie }));
      for (const [what, value] of secrets) {
        expect(content.includes(value), `${what} on ${route}`).toBe(false);
        expect(storage.includes(value), `${what} in the storage of ${route}`).toBe(false);
      }
      await expectNoSeriousA11yViolations(page);
    }
    const log = server.output();
    expect(log.length).toBeGreaterThan(0);
    for (const [what, value] of secrets) expect(log.includes(value), `${what} in the service's log`).toBe(false);
  });
});

/** Serves one HTML page at `/` on `host` (a loopback address), on a free port. */
async function serveOnce(host: string, html: string): Promise<{ url: string; server: Server }> {
  const server = createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html));
  server.listen(0, host);
  await once(server, 'listening');
  return { url: `http://${host}:${(server.address() as { port: number }).port}/`, server };
}
