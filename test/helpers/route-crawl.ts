/**
 * One page of the every-route crawl (test/browser/every-route.test.ts) reused for many visits:
 * what each visit saw go wrong (an API answer >= 500, an uncaught page error, a console error, a
 * failed request), the API calls still in flight, when the page has settled, the API held
 * (every /api/v1 call but the session's) so a page's loading state stays on screen for axe, and a
 * visit made inside the single-page app (no reload: the bundle is parsed once per app and language).
 */
import type { Page, Request, Route } from 'playwright-core';

export interface WatchedPage {
  readonly page: Page;
  /** What went wrong since the last reset(). */
  problems(): string[];
  /** Forgets the problems so far (the next visit starts clean). */
  reset(): void;
  /** The API calls sent and not answered yet, `METHOD path`. */
  inFlight(): string[];
  /** How many API calls the page has sent so far (never reset). */
  sent(): number;
}

const isApi = (url: string) => new URL(url).pathname.startsWith('/api/');
const describe = (request: Request) => `${request.method()} ${new URL(request.url()).pathname}${new URL(request.url()).search}`;

/** Watches `page` from now on; `allowConsole` tolerates console errors matching any of its patterns. */
export function watchPage(page: Page, allowConsole: RegExp[] = []): WatchedPage {
  let problems: string[] = [];
  const inFlight = new Set<Request>();
  let sent = 0;
  page.on('response', (response) => {
    if (isApi(response.url()) && response.status() >= 500) problems.push(`API ${response.status()}: ${describe(response.request())}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && !allowConsole.some((pattern) => pattern.test(message.text()))) problems.push(`console error: ${message.text()} (${message.location().url})`);
  });
  page.on('request', (request) => {
    if (!isApi(request.url())) return;
    inFlight.add(request);
    sent++;
  });
  page.on('requestfinished', (request) => inFlight.delete(request));
  page.on('requestfailed', (request) => {
    inFlight.delete(request);
    // The browser cancels what is in flight when the page navigates: ERR_ABORTED is the crawl's own doing.
    const error = request.failure()?.errorText;
    if (error !== 'net::ERR_ABORTED') problems.push(`request failed: ${describe(request)}: ${error}`);
  });
  return {
    page,
    problems: () => [...problems],
    reset: () => {
      problems = [];
      inFlight.clear();
    },
    inFlight: () => [...inFlight].map(describe),
    sent: () => sent,
  };
}

/** ErrorAlert's title (components/error-alert.tsx) in either language: the page failed to read or do something. */
export const ERROR_ALERT = /^(Algo deu errado|Something went wrong)/;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What the page shows now, read in one call (polling costs a round trip per read). */
interface Shown {
  loading: number;
  headings: number;
  /** Headings of the page left by navigateInApp() still on screen. */
  left: number;
  alerts: number;
}

/**
 * After navigateInApp(): the heading of the page left is gone, or (the same page with another
 * record: React keeps its heading) the new page has asked the API for something.
 */
export interface LeftPage {
  samePage: boolean;
  sentBefore: number;
}

/**
 * Waits until the page shows a first-level heading (not the one of a page `left`), no loading
 * status region, and no API call has been in flight for `quietMs`; or until it shows an error alert
 * (a failure the caller reports). Throws after `timeoutMs` saying what it still waited for (a page
 * that spins forever is a failure).
 */
export async function waitUntilSettled(watched: WatchedPage, timeoutMs = 15_000, quietMs = 200, left?: LeftPage): Promise<void> {
  const { page } = watched;
  let quietSince: number | undefined;
  let last = '';
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await sleep(100)) {
    const shown = await page.evaluate((alertSource): Shown => {
      const document = (globalThis as unknown as { document: { querySelectorAll(selector: string): ArrayLike<{ textContent: string | null }> } }).document;
      const count = (selector: string) => document.querySelectorAll(selector).length;
      const alert = new RegExp(alertSource);
      const alerts = Array.from(document.querySelectorAll('[role="alert"]')).filter((element) => alert.test((element.textContent ?? '').trim())).length;
      return { loading: count('[data-testid="loading"]'), headings: count('h1'), left: count('h1[data-crawl-left]'), alerts };
    }, ERROR_ALERT.source);
    if (shown.alerts > 0) return;
    const pending = watched.inFlight();
    const stillLeft = left !== undefined && shown.left > 0 && !(left.samePage && watched.sent() > left.sentBefore);
    last = `${shown.loading} loading status region(s), ${shown.headings} h1${stillLeft ? ' (the page left)' : ''}, API calls in flight: [${pending.join(', ')}]`;
    if (stillLeft || shown.loading > 0 || shown.headings === 0 || pending.length > 0) {
      quietSince = undefined;
      continue;
    }
    quietSince ??= Date.now();
    if (Date.now() - quietSince >= quietMs) return;
  }
  throw new Error(`the page did not settle in ${timeoutMs / 1000} s: ${last}`);
}

/**
 * Goes to `address` (under /app) inside the single-page app, as a link would: TanStack Router's
 * history wraps history.pushState and follows it. The headings on screen are marked first, so
 * waitUntilSettled(…, left) tells the new page from the one left.
 */
export async function navigateInApp(watched: WatchedPage, address: string, samePage: boolean): Promise<LeftPage> {
  const sentBefore = watched.sent();
  await watched.page.evaluate((to) => {
    const window = globalThis as unknown as {
      document: { querySelectorAll(selector: string): ArrayLike<{ setAttribute(name: string, value: string): void }> };
      history: { state: { __TSR_index?: number } | null; pushState(state: unknown, unused: string, url: string): void };
    };
    for (const heading of Array.from(window.document.querySelectorAll('h1'))) heading.setAttribute('data-crawl-left', '');
    // The router's own state shape: its index tells back from forward, its key restores scrolling.
    const key = Math.random().toString(36).slice(2, 10);
    window.history.pushState({ __TSR_index: (window.history.state?.__TSR_index ?? 0) + 1, key, __TSR_key: key }, '', to);
  }, address);
  return { samePage, sentBefore };
}

/** The session reads, which the guards need before any page shows: never held. */
const SESSION = /\/api\/v1\/(admin\/)?auth\/sessions\/current$/;
const API = /\/api\/v1\//;

export interface HeldApi {
  /** The calls held so far. */
  held(): number;
  /** Lets every held call (and every later one) through. */
  release(): Promise<void>;
}

/** Holds every /api/v1 call of `page` but the session's until release(). */
export async function holdApi(page: Page): Promise<HeldApi> {
  const held: Route[] = [];
  let released = false;
  const handler = async (route: Route) => {
    if (released || SESSION.test(new URL(route.request().url()).pathname)) return route.continue();
    held.push(route);
  };
  await page.route(API, handler);
  return {
    held: () => held.length,
    async release() {
      released = true;
      await page.unroute(API, handler);
      // A held call of a page already left fails to continue: nothing is waiting for it.
      await Promise.all(held.splice(0).map((route) => route.continue().catch(() => undefined)));
    },
  };
}

/**
 * With the API held: waits until the page shows a loading status region, or shows its heading
 * with calls held (its loading state is whatever it shows meanwhile); answers false when the
 * page asked the API for nothing (no loading state to check).
 */
export async function waitForLoadingState(watched: WatchedPage, hold: HeldApi, timeoutMs = 5_000): Promise<boolean> {
  const { page } = watched;
  let shownSince: number | undefined;
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await sleep(50)) {
    if ((await page.locator('[data-testid="loading"]').count()) > 0) return true;
    if ((await page.locator('h1').count()) === 0) continue;
    shownSince ??= Date.now();
    if (Date.now() - shownSince >= 500) return hold.held() > 0;
  }
  return hold.held() > 0;
}

/** Sets the dashboard's language (kept in localStorage, read at load) for the page's next load. */
export async function setLanguage(page: Page, baseUrl: string, language: 'pt-BR' | 'en'): Promise<void> {
  if (!page.url().startsWith(baseUrl)) await page.goto(`${baseUrl}/api/v1/healthz`);
  await page.evaluate((value) => (globalThis as unknown as { localStorage: { setItem(key: string, value: string): void } }).localStorage.setItem('dashboard.language', value), language);
}

/** The language switch's label in either language (components/language-switch.tsx). */
const LANGUAGE_SWITCH = /^(Idioma|Language)$/;

/**
 * Changes the language of the page shown, in place, through its language switch (the app
 * re-renders its texts; nothing is fetched, so a held API stays held and a loading state stays on
 * screen), and waits until the document says it (`<html lang>`). Answers false when the page
 * shows no switch (then only a load in that language shows the page in it).
 */
export async function switchLanguageInPlace(page: Page, language: 'pt-BR' | 'en'): Promise<boolean> {
  const select = page.getByLabel(LANGUAGE_SWITCH);
  if ((await select.count()) !== 1 || !(await select.isVisible())) return false;
  await select.selectOption(language);
  await page.waitForFunction((wanted) => (globalThis as unknown as { document: { documentElement: { lang: string } } }).document.documentElement.lang === wanted, language, { timeout: 5_000 });
  return true;
}
