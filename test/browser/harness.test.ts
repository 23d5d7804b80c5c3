/**
 * The browser harness itself (test/helpers/browser.ts, dashboard-server.ts), before any dashboard
 * page exists: Chromium opens the running service's Swagger UI, the axe check finds a known
 * violation on a small page served here and passes a clean one, the problem collector sees a
 * console error and a failed request, and the demo owner enrols TOTP and signs in with a code.
 */
import { stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath, expectNoSeriousA11yViolations, findSeriousA11yViolations, screenshot, useBrowser } from '../helpers/browser.ts';
import { addSessionCookie, type DashboardServer, enrolTotp, signInByApi, startDashboardServer, totpCode } from '../helpers/dashboard-server.ts';

const page = (body: string, title = 'Fixture') =>
  `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>${title}</title><link rel="icon" href="data:,"></head><body><main>${body}</main></body></html>`;
const PIXEL = 'data:image/gif;base64,R0lGODlhAQABAAAAACw=';

/** Small pages on loopback: one accessible, one with two known serious violations, one that logs an error and fails a request. */
const FIXTURES: Record<string, string> = {
  '/clean': page(`<h1>Pedidos</h1><p>R$ 1.234,56</p><label for="q">Buscar</label><input id="q" name="q"><img src="${PIXEL}" alt="Logotipo">`),
  // image-alt (critical) and label (critical): axe must name both, with their elements.
  '/violations': page(`<h1>Pedidos</h1><img id="logo" src="${PIXEL}"><input id="search" type="text">`),
  // A console error, and a request whose connection the server drops (a failed request, not an HTTP error).
  '/noisy': page(`<h1>Erros</h1><script>console.error('boom from the page'); fetch('/drop').catch(() => {});</script>`),
};

async function serveFixtures(): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    if (request.url === '/drop') return void request.socket.destroy();
    const html = FIXTURES[request.url ?? ''];
    response.writeHead(html ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' }).end(html ?? 'not found');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server };
}

// Pages load and axe runs in a browser sharing two cores with the rest of the suite: generous time.
describe('browser harness', { timeout: 60_000 }, () => {
  const browser = useBrowser();
  let service: DashboardServer;
  let fixtures: { url: string; server: Server };

  beforeAll(async () => {
    [service, fixtures] = await Promise.all([startDashboardServer(), serveFixtures()]);
  }, 120_000);
  afterAll(async () => {
    fixtures?.server.close();
    expect(await service?.stop()).toBe(0);
  });

  it('opens the running service in Chromium: /docs shows the API reference, a screenshot is saved, axe reports Swagger UI\'s own violations', async () => {
    const response = await browser.page.goto(`${service.baseUrl}/docs`);
    expect(response?.status()).toBe(200);
    await expect.poll(() => browser.page.title()).toBe('Swagger UI');
    await browser.page.getByRole('heading', { name: /Crypto\/BRL Exchange Merchant API/ }).waitFor();
    const file = await screenshot(browser.page, 'swagger-ui');
    expect(file).toMatch(/test-results\/browser\/harness\/swagger-ui\.png$/);
    expect((await stat(file)).size).toBeGreaterThan(10_000);
    // Swagger UI (third-party, not the dashboard) has serious violations of its own: its top bar's
    // logo has no alt text and its URL input no label. The helper must report them on a real page.
    // Scoped to the top bar: axe over all of Swagger UI's operations takes ~20 s on a busy machine.
    const violations = await findSeriousA11yViolations(browser.page, { include: '.topbar' });
    expect(violations).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: 'image-alt', impact: 'critical', targets: [expect.stringMatching(/img/)] }),
        expect.objectContaining({ id: 'label', impact: 'critical', targets: ['#download-url-input'] }),
      ]),
    );
  });

  it('is a pt-BR browser in São Paulo, as the dashboard must show amounts and dates', async () => {
    await browser.page.goto(`${fixtures.url}/clean`);
    const seen = await browser.page.evaluate(() => ({
      language: navigator.language,
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      amount: new Intl.NumberFormat(undefined, { style: 'currency', currency: 'BRL' }).format(1234.5),
      date: new Date(Date.UTC(2026, 0, 2, 1, 0)).toLocaleDateString(),
    }));
    expect(seen).toEqual({ language: 'pt-BR', timeZone: 'America/Sao_Paulo', amount: 'R$\u00a01.234,50', date: '01/01/2026' });
  });

  it('the axe check names each serious violation with its rule, impact and element, and fails the test with that list', async () => {
    await browser.page.goto(`${fixtures.url}/violations`);
    const violations = await findSeriousA11yViolations(browser.page);
    expect(violations.map(({ id, impact, targets }) => ({ id, impact, targets })).sort((a, b) => a.id.localeCompare(b.id))).toEqual([
      { id: 'image-alt', impact: 'critical', targets: ['#logo'] },
      { id: 'label', impact: 'critical', targets: ['#search'] },
    ]);
    const failure = await expectNoSeriousA11yViolations(browser.page).then(
      () => undefined,
      (err: Error) => err.message,
    );
    expect(failure).toMatch(/^2 serious or critical accessibility violation\(s\) on http:\/\/127\.0\.0\.1:\d+\/violations:/);
    expect(failure).toContain('- image-alt (critical): Images must have alternative text');
    expect(failure).toContain('    at #logo');
    expect(failure).toContain('    at #search');
    // Options narrow the check: outside the offending elements there is nothing to report.
    expect(await findSeriousA11yViolations(browser.page, { exclude: ['#logo', '#search'] })).toEqual([]);
  });

  it('the axe check passes an accessible page', async () => {
    await browser.page.goto(`${fixtures.url}/clean`);
    expect(await findSeriousA11yViolations(browser.page)).toEqual([]);
    await expectNoSeriousA11yViolations(browser.page);
  });

  it('collects console errors and failed requests (each test fails on them unless allowed)', async () => {
    await browser.page.goto(`${fixtures.url}/noisy`);
    await expect.poll(() => browser.problems().length).toBe(3);
    const problems = browser.problems().sort();
    expect(problems[0]).toMatch(/^console error: Failed to load resource: net::ERR_EMPTY_RESPONSE \(http:\/\/127\.0\.0\.1:\d+\/drop\)$/);
    expect(problems[1]).toMatch(/^console error: boom from the page \(http:\/\/127\.0\.0\.1:\d+\/noisy\)$/);
    expect(problems[2]).toMatch(/^request failed: GET http:\/\/127\.0\.0\.1:\d+\/drop: net::ERR_EMPTY_RESPONSE$/);
    browser.allowProblems(/boom from the page/, /\/drop\b/);
  });

  it('the demo owner (TOTP not enrolled) enrols by the API, signs in only with a current code, and its session opens pages in the browser', async () => {
    expect(service.owner.email).toBe('owner@demo.example');
    expect(service.apiKey).toMatch(/^mk_/);
    const secret = await enrolTotp(service.baseUrl, service.owner);
    expect(totpCode(secret, new Date())).toMatch(/^\d{6}$/);
    await expect(signInByApi(service.baseUrl, service.owner)).rejects.toThrow(/401/);
    const session = await signInByApi(service.baseUrl, service.owner, secret);
    await addSessionCookie(browser.context, service.baseUrl, session);
    // Opened as a page, a JSON answer makes Chromium ask for /favicon.ico, which the API does not serve.
    browser.allowProblems(/404 \(Not Found\) \(http:\/\/127\.0\.0\.1:\d+\/favicon\.ico\)$/);
    const current = await browser.page.goto(`${service.baseUrl}/api/v1/auth/sessions/current`);
    expect(await current?.json()).toMatchObject({ user: { email: 'owner@demo.example', role: 'OWNER', totpEnabled: true }, csrfToken: session.csrfToken, totpEnrolmentRequired: false });
  });
});

describe('without Chromium', () => {
  it('fails saying how to install it, never skips', () => {
    const saved = process.env.CHROMIUM_PATH;
    process.env.CHROMIUM_PATH = '/nonexistent/chromium';
    try {
      expect(() => chromiumPath()).toThrow(/Chromium not found at \/nonexistent\/chromium.*apt-get install -y chromium.*CHROMIUM_PATH/s);
    } finally {
      if (saved === undefined) delete process.env.CHROMIUM_PATH;
      else process.env.CHROMIUM_PATH = saved;
    }
  });
});
