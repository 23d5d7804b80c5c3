/**
 * Every page of both apps, with data in every state (issue 42, "Must show"): the routes are read
 * from web/src/routes.tsx (test/helpers/dashboard-routes.ts), so a page added later is visited
 * without editing this file, and a page with a parameter PARAMS below does not map to seeded data
 * fails here. The data is made through the API (test/helpers/crawl-seed.ts): a page with an `$id`
 * is visited once per state of its record (an order page for each order state, claims included;
 * a test checks the orders seeded are in every status an order can be stored in).
 *
 * Each visit, in pt-BR and in English: the page's loading state first, with the API held (once per
 * page, on its first visit in pt-BR: it shows no record yet), axe on it in pt-BR and, the language
 * switched in place while the API stays held, in English (a page with no switch on screen then
 * holds its English visit too); then the page settled (a heading, no loading status,
 * no API call in flight), and it fails on an API answer >= 500, an uncaught page error, a console
 * error, an alert on the page, "Página não encontrada" / "Page not found", an address it was
 * redirected away from, or a serious or critical axe violation. axe runs on every page in both
 * languages (on its first state) and on each other state in one language by turns: a state changes
 * what a page shows, a language only its texts. One browser, one context and page per app
 * (merchant, back office, public pages), reused; a visit goes there inside the single-page app
 * (pushState, as a link does) and reloads only to hold the API, change language or sign in
 * otherwise (public pages), or after a failed visit. The wall time is printed at the end.
 */
import { appendFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORED_ORDER_STATUSES } from '../../src/modules/orders/tables.ts';
import { BROWSER_OUTPUT_DIR, findSeriousA11yViolations, formatA11yViolations, launchChromium, screenshot } from '../helpers/browser.ts';
import { type CrawlSeed, seedEveryState, STATES, type StateKind } from '../helpers/crawl-seed.ts';
import { addSessionCookie, type DashboardServer, startDashboardServer } from '../helpers/dashboard-server.ts';
import { dashboardRoutes, type DashboardRoute, fillRoute, paramKind } from '../helpers/dashboard-routes.ts';
import { addOperatorCookie, TEST_ADMIN_TOKEN } from '../helpers/ops-browser.ts';
import { ERROR_ALERT, holdApi, type LeftPage, navigateInApp, setLanguage, switchLanguageInPlace, waitForLoadingState, waitUntilSettled, type WatchedPage, watchPage } from '../helpers/route-crawl.ts';

/**
 * What each page's parameters are set to: the kind of record whose seeded states it is visited in.
 * A page whose path is not here and has a parameter fails the crawl: map it when adding the page.
 * '/disputes/$id' is the merchant's claim page (issue 42, item 2), visited once routes.tsx has it.
 */
const PARAMS: Record<string, StateKind> = {
  '/orders/$id': 'orders',
  '/receivers/$id': 'receivers',
  '/disputes/$id': 'disputes',
  '/developers/webhooks/$id': 'endpoints',
  '/developers/webhooks/deliveries/$id': 'deliveries',
  '/ops/orders/$id': 'orders',
  '/ops/kyc/$id': 'receivers',
  '/ops/disputes/$id': 'disputes',
  '/ops/approvals/$id': 'approvals',
  '/ops/merchants/$id': 'merchants',
  '/payout-batches/$id': 'batches',
};

/** The public pages that need a session or a link's token; any other is visited signed out. */
const PUBLIC: Record<string, { session?: 'merchant enrolment' | 'operator enrolment'; token?: (seed: CrawlSeed) => string }> = {
  '/sign-in/totp': { session: 'merchant enrolment' },
  '/ops/sign-in/totp': { session: 'operator enrolment' },
  '/accept-invitation': { token: (seed) => seed.invitationToken },
  '/reset-password': { token: (seed) => seed.resetToken },
  '/ops/accept-invitation': { token: (seed) => seed.operatorInvitationToken },
};

const LANGUAGES = ['pt-BR', 'en'] as const;
const NOT_FOUND = /^(Página não encontrada|Page not found)$/;


interface Visit {
  route: DashboardRoute;
  state?: { kind: StateKind; name: string };
  /** The page's first state: its loading state is checked on this visit (see crawl()). */
  checksLoading?: true;
  /** The languages it is checked with axe in: both on a page's first state, one by turns on the others. */
  axeIn: ReadonlyArray<(typeof LANGUAGES)[number]>;
}

/**
 * A page's visits: one per state of its record. Its loading state is checked on the first, in both
 * languages from one held load (pt-BR, then English switched in place: a second held load per
 * page would add a reload, a wait for the loading state and axe's injection to some 50 visits).
 */
function visitsOf(route: DashboardRoute, index: number): Visit[] | string {
  const mapped = paramKind(route, PARAMS);
  if ('problem' in mapped) return mapped.problem;
  if (!mapped.kind) return [{ route, checksLoading: true, axeIn: LANGUAGES }];
  const kind = mapped.kind;
  return STATES[kind].map((name, i) => ({ route, state: { kind, name }, ...(i === 0 ? { checksLoading: true, axeIn: LANGUAGES } : { axeIn: [LANGUAGES[(index + i) % LANGUAGES.length]!] }) }));
}

describe('every route of both apps, every data state, both languages', () => {
  const routes = dashboardRoutes();
  let server: DashboardServer;
  let seed: CrawlSeed;
  let browser: Browser;
  /** Per app; `shown` is what its document was loaded with and last showed, undefined to load it again. */
  const pages = new Map<string, { context: BrowserContext; watched: WatchedPage; shown?: { language: string; path: string; address: string } }>();
  let started = 0;
  let crawlStarted = 0;
  let visited = 0;
  /** Pages whose loading state the pt-BR visit could not switch to English (no switch on screen): their English visit holds the API too. */
  const loadingLeftInEnglish = new Set<string>();
  /** Loading states checked with axe, by language (printed at the end). */
  const loadingChecked = { 'pt-BR': 0, en: 0 };
  /** Where the crawl's time goes, by phase (printed at the end: the crawl must stay fast). */
  const spent = new Map<string, number>();
  const timed = async <T>(phase: string, work: () => Promise<T>): Promise<T> => {
    const at = performance.now();
    try {
      return await work();
    } finally {
      spent.set(phase, (spent.get(phase) ?? 0) + performance.now() - at);
    }
  };

  beforeAll(async () => {
    started = performance.now();
    server = await startDashboardServer({ ADMIN_TOKEN: TEST_ADMIN_TOKEN, LOG_LEVEL: 'info', PAYIN_EXPIRY_SECONDS: '60', NODE_ENV: 'test', TEST_HOLD_ORDER_STEPS: 'true' });
    [seed, browser] = await Promise.all([seedEveryState(server), launchChromium()]);
    for (const app of new Set(routes.map((route) => route.app))) {
      const context = await browser.newContext({ locale: 'pt-BR', timezoneId: 'America/Sao_Paulo', viewport: { width: 1280, height: 800 }, baseURL: server.baseUrl });
      if (app === 'shell') await addSessionCookie(context, server.baseUrl, seed.owner);
      if (app === 'ops') await addOperatorCookie(context, server.baseUrl, seed.operator);
      // Signed out, the public pages' session reads answer 401, which the browser logs.
      const allowed = app === 'root' ? [/status of 401 \(Unauthorized\)/] : [];
      pages.set(app, { context, watched: watchPage(await context.newPage(), [/favicon\.ico/, ...allowed]) });
    }
    crawlStarted = performance.now();
  }, 300_000); // the seeding restarts the service once (crawl-seed.ts): 60-100 s, more on a loaded machine

  afterAll(async () => {
    const seconds = (at: number) => ((performance.now() - at) / 1000).toFixed(1);
    if (crawlStarted) {
      // In a file too: vitest keeps a passing file's console output to itself.
      const phases = [...spent].map(([phase, ms]) => `${phase} ${(ms / 1000).toFixed(1)} s`).join(', ');
      const loading = `loading states checked: ${loadingChecked['pt-BR']} pt-BR, ${loadingChecked.en} en (${loadingLeftInEnglish.size} of them by a held English load)`;
      const line = `every-route: ${visited} visits in ${seconds(crawlStarted)} s (${seconds(started)} s with the seeding); ${phases}; ${loading}\n`;
      console.log(line);
      await mkdir(path.join(BROWSER_OUTPUT_DIR, 'every-route'), { recursive: true });
      await appendFile(path.join(BROWSER_OUTPUT_DIR, 'every-route', 'wall-time.txt'), `${new Date().toISOString()} ${line}`);
    }
    await browser?.close();
    seed?.close();
    if (server) expect(await server.stop()).toBe(0);
  });

  it('reads the pages of routes.tsx: both apps and the public pages', () => {
    const paths = routes.map((route) => route.path);
    expect(paths).toEqual(expect.arrayContaining(['/sign-in', '/', '/orders/$id', '/ops/kyc', '/ops/orders/$id']));
    expect(new Set(routes.map((route) => route.app))).toEqual(new Set(['root', 'ops', 'shell']));
  });

  it('has an order in every status an order is stored in (a status added later fails here until seeded)', async () => {
    // PENDING is never stored (docs/architecture/orders.md): no order can be in it.
    expect([...(await seed.orderStatuses())].sort()).toEqual([...STORED_ORDER_STATUSES].sort());
  });

  for (const [index, route] of routes.entries()) {
    const visits = visitsOf(route, index);
    if (typeof visits === 'string') {
      it(`${route.path}: its parameters map to seeded data`, () => {
        throw new Error(visits);
      });
    }
  }

  for (const language of LANGUAGES) {
    describe(language, () => {
      for (const [index, route] of routes.entries()) {
        const visits = visitsOf(route, index);
        if (typeof visits === 'string') continue;
        for (const visit of visits) {
          it(`${route.app} ${route.path}${visit.state ? ` [${visit.state.name}]` : ''}`, { timeout: 120_000 }, async () => {
            await crawl(visit, language);
          });
        }
      }
    });
  }

  async function crawl({ route, state, checksLoading, axeIn }: Visit, language: (typeof LANGUAGES)[number]): Promise<void> {
    const app = pages.get(route.app)!;
    const { context, watched } = app;
    const { page } = watched;
    const values: Record<string, string> = {};
    if (state) values.id = await timed('seeded ids', () => (seed.ids[state.kind] as Record<string, () => Promise<string>>)[state.name]!());
    const publicPage = route.app === 'root' ? PUBLIC[route.path] : undefined;
    const hold = checksLoading === true && (language === 'pt-BR' || loadingLeftInEnglish.has(route.path));
    // The public pages each want their own cookies; a held API and the language need a fresh load.
    const shown = app.shown;
    app.shown = undefined;
    const address = fillRoute(route, values);
    // The address already shown (a redirect's target included) would change nothing on screen to wait for.
    const inApp = !hold && route.app !== 'root' && shown?.language === language && shown.address !== address.replace(/(.)\/$/, '$1');
    if (route.app === 'root') {
      await context.clearCookies();
      if (publicPage?.session === 'merchant enrolment') await addSessionCookie(context, server.baseUrl, seed.merchantEnrolment);
      if (publicPage?.session === 'operator enrolment') await addOperatorCookie(context, server.baseUrl, seed.operatorEnrolment);
    }
    if (!inApp) await setLanguage(page, server.baseUrl, language);
    watched.reset();
    visited++;
    const failures: string[] = [];
    const axe = async (when: string) => {
      const violations = await timed(`axe ${when}`, () => findSeriousA11yViolations(page));
      if (violations.length > 0) failures.push(`axe, ${when}:\n${formatA11yViolations(violations)}`);
    };

    try {
      let left: LeftPage | undefined;
      if (inApp) {
        left = await timed('load', () => navigateInApp(watched, address, shown.path === route.path));
      } else {
        const held = hold ? await holdApi(page) : undefined;
        await timed('load', () => page.goto(`${address}${publicPage?.token ? `#${publicPage.token(seed)}` : ''}`));
        if (held) {
          if (await timed('loading state', () => waitForLoadingState(watched, held))) {
            await axe('while loading');
            loadingChecked[language]++;
            // English in place, the API still held: the same loading state, its other texts.
            if (language === 'pt-BR') {
              if (await timed('switch language', () => switchLanguageInPlace(page, 'en'))) {
                await axe('while loading, en');
                loadingChecked.en++;
                await timed('switch language', () => switchLanguageInPlace(page, language));
              } else {
                loadingLeftInEnglish.add(route.path);
              }
            }
          }
          await held.release();
        }
      }
      await timed('settle', () => waitUntilSettled(watched, undefined, undefined, left));
      const expected = `/app${route.redirectsTo ?? new URL(address, server.baseUrl).pathname.slice('/app'.length)}`.replace(/(.)\/$/, '$1');
      const landed = new URL(page.url()).pathname.replace(/(.)\/$/, '$1');
      if (landed !== expected) failures.push(`landed on ${landed}, not ${expected}`);
      const heading = (await page.locator('h1').first().innerText()).trim();
      if (NOT_FOUND.test(heading)) failures.push(`"${heading}" for a page routes.tsx has`);
      for (const alert of await page.getByRole('alert').allInnerTexts()) {
        if (ERROR_ALERT.test(alert.trim())) failures.push(`an error on the page: ${alert.replace(/\s+/g, ' ')}`);
      }
      if (axeIn.includes(language)) await axe('loaded');
    } catch (error) {
      failures.push((error as Error).message);
    }
    failures.unshift(...watched.problems());
    if (failures.length > 0) {
      await screenshot(page, `${language}-${route.app}-${route.path}-${state?.name ?? ''}`).catch(() => undefined);
      throw new Error(`${address} (${language}${state ? `, ${state.kind} ${state.name}` : ''}):\n${failures.join('\n')}`);
    }
    // Only a visit that went well leaves its document for the next one to navigate inside.
    app.shown = { language, path: route.redirectsTo ?? route.path, address: new URL(page.url()).pathname.replace(/(.)\/$/, '$1') };
  }
});
