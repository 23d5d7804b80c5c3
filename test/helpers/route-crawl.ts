/**
 * One page of the every-route crawl (test/browser/every-route.test.ts) reused for many visits:
 * what each visit saw go wrong (an API answer >= 500, an uncaught page error, a console error, a
 * failed request), the API calls still in flight, when the page has settled, and the API held
 * (every /api/v1 call but the session's) so a page's loading state stays on screen for axe.
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
}

const isApi = (url: string) => new URL(url).pathname.startsWith('/api/');
const describe = (request: Request) => `${request.method()} ${new URL(request.url()).pathname}${new URL(request.url()).search}`;

/** Watches `page` from now on; `allowConsole` tolerates console errors matching any of its patterns. */
export function watchPage(page: Page, allowConsole: RegExp[] = []): WatchedPage {
  let problems: string[] = [];
  const inFlight = new Set<Request>();
  page.on('response', (response) => {
    if (isApi(response.url()) && response.status() >= 500) problems.push(`API ${response.status()}: ${describe(response.request())}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && !allowConsole.some((pattern) => pattern.test(message.text()))) problems.push(`console error: ${message.text()} (${message.location().url})`);
  });
  page.on('request', (request) => {
    if (isApi(request.url())) inFlight.add(request);
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
  };
}

/** ErrorAlert's title (components/error-alert.tsx) in either language: the page failed to read or do something. */
export const ERROR_ALERT = /^(Algo deu errado|Something went wrong)/;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits until the page shows a first-level heading, no loading status region, and no API call has
 * been in flight for `quietMs`; or until it shows an error alert (a failure the caller reports). Throws
 * after `timeoutMs` saying what it still waited for (a page that spins forever is a failure).
 */
export async function waitUntilSettled(watched: WatchedPage, timeoutMs = 15_000, quietMs = 200): Promise<void> {
  const { page } = watched;
  let quietSince: number | undefined;
  let last = '';
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await sleep(50)) {
    const [loading, headings, alerts] = await Promise.all([page.locator('[data-testid="loading"]').count(), page.locator('h1').count(), page.getByRole('alert').filter({ hasText: ERROR_ALERT }).count()]);
    if (alerts > 0) return;
    const pending = watched.inFlight();
    last = `${loading} loading status region(s), ${headings} h1, API calls in flight: [${pending.join(', ')}]`;
    if (loading > 0 || headings === 0 || pending.length > 0) {
      quietSince = undefined;
      continue;
    }
    quietSince ??= Date.now();
    if (Date.now() - quietSince >= quietMs) return;
  }
  throw new Error(`the page did not settle in ${timeoutMs / 1000} s: ${last}`);
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
