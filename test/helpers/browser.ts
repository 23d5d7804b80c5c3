/**
 * Browser tests (issue 28): Debian's Chromium driven by playwright-core (Playwright's own browser
 * downloads are not used), one browser per test file, a fresh pt-BR / São Paulo context per test.
 * Every test fails on a console error, an uncaught page error or a failed request unless it allows
 * that problem by pattern: a dashboard that logs errors is broken even when its assertions pass.
 * Screenshots land in test-results/browser/<test file>/ (git-ignored); a failing test leaves one
 * of its page there too. README.md's "Test it" says how to run these.
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';

/** Where screenshots go: test-results/browser/ at the project's root, one folder per test file. */
export const BROWSER_OUTPUT_DIR = fileURLToPath(new URL('../../test-results/browser/', import.meta.url));

/**
 * Headless Chromium as root in a closed network: no sandbox (root), no GPU, and none of the
 * background traffic (updates, sync, QUIC probes) that stalls it when nothing answers.
 * Playwright's launch() gives each browser a fresh temporary profile (user-data-dir).
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * CHROMIUM_PATH, else Debian's old headless shell (package chromium-headless-shell: the same
 * engine without the desktop browser around it, as Playwright's own headless runs use; it took
 * 40 % less CPU than /usr/bin/chromium over two of these files), else /usr/bin/chromium. Absent,
 * the test fails saying how to install it (never skipped).
 */
export function chromiumPath(): string {
  const executable = process.env.CHROMIUM_PATH || ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((candidate) => existsSync(candidate)) || '/usr/bin/chromium';
  if (!existsSync(executable)) {
    throw new Error(
      `Chromium not found at ${executable}: browser tests need it. Install Debian's package ` +
        '(as root: DEBIAN_FRONTEND=noninteractive apt-get install -y chromium chromium-headless-shell; .ci/run does this), ' +
        'or set CHROMIUM_PATH to a Chromium or Chrome executable.',
    );
  }
  return executable;
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), headless: true, args: CHROMIUM_ARGS });
}

export interface BrowserSession {
  /** The file's browser (launched in beforeAll). */
  readonly browser: Browser;
  /** This test's context: pt-BR, America/Sao_Paulo, 1280x800, `baseURL` when given. */
  readonly context: BrowserContext;
  /** This test's page, opened in its context. */
  readonly page: Page;
  /** Console errors, uncaught page errors and failed requests seen so far in this test. */
  problems(): string[];
  /** Tolerates the problems matching any pattern in this test (e.g. the 403 a VIEWER is shown). */
  allowProblems(...patterns: RegExp[]): void;
}

/**
 * Registers this file's (or describe's) hooks: Chromium launched once, a new context and page per
 * test, and after each test its problems asserted empty and, if it failed, a screenshot taken.
 * `baseURL` may be a function, read when each test starts (a server started in beforeAll).
 */
export function useBrowser(options: { baseURL?: string | (() => string) } = {}): BrowserSession {
  let browser: Browser | undefined;
  let current: { context: BrowserContext; page: Page; problems: string[]; allowed: RegExp[] } | undefined;
  const need = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${what} is only available inside a test of a file that called useBrowser()`);
    return value;
  };

  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  beforeEach(async () => {
    const baseURL = typeof options.baseURL === 'function' ? options.baseURL() : options.baseURL;
    const context = await need(browser, 'the browser').newContext({
      locale: 'pt-BR',
      timezoneId: 'America/Sao_Paulo',
      viewport: { width: 1280, height: 800 },
      ...(baseURL ? { baseURL } : {}),
    });
    const problems: string[] = [];
    context.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console error: ${message.text()} (${message.location().url || message.page()?.url()})`);
    });
    context.on('weberror', (error) => problems.push(`page error: ${error.error().message}`));
    context.on('requestfailed', (request) => {
      const error = request.failure()?.errorText;
      // The browser cancels what is in flight when the page navigates (a click before a query
      // answered): ERR_ABORTED is the page's own doing, not a failure of the service.
      if (error !== 'net::ERR_ABORTED') problems.push(`request failed: ${request.method()} ${request.url()}: ${error}`);
    });
    current = { context, page: await context.newPage(), problems, allowed: [] };
  });

  afterEach(async ({ task }) => {
    const test = current;
    current = undefined;
    if (!test) return;
    try {
      if (task.result?.state === 'fail') {
        await screenshot(test.page, `${task.name}-failed`).catch((err: Error) => console.error(`no failure screenshot: ${err.message}`));
      }
    } finally {
      await test.context.close();
    }
    const unexpected = test.problems.filter((problem) => !test.allowed.some((pattern) => pattern.test(problem)));
    expect(unexpected, 'the page logged errors or had failed requests (allowProblems() tolerates expected ones)').toEqual([]);
  });

  return {
    get browser() {
      return need(browser, 'the browser');
    },
    get context() {
      return need(current, 'the context').context;
    },
    get page() {
      return need(current, 'the page').page;
    },
    problems: () => [...need(current, 'problems()').problems],
    allowProblems: (...patterns) => need(current, 'allowProblems()').allowed.push(...patterns),
  };
}

/** The test file's folder under BROWSER_OUTPUT_DIR (its name without `.test.ts`). */
export function browserOutputDir(): string {
  const testPath = expect.getState().testPath;
  return path.join(BROWSER_OUTPUT_DIR, testPath ? path.basename(testPath).replace(/\.test\.ts$/, '') : 'unknown');
}

/** A full-page PNG at test-results/browser/<test file>/<name>.png; answers its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  const dir = browserOutputDir();
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `${name.replace(/[^\w.-]+/g, '-')}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

export interface A11yViolation {
  /** axe's rule id, e.g. `image-alt`. */
  id: string;
  impact: 'serious' | 'critical';
  help: string;
  helpUrl: string;
  /** One CSS selector per offending element (frames and shadow roots joined by ` >>> `). */
  targets: string[];
}

export interface A11yOptions {
  /** Check only inside this selector. */
  include?: string;
  /** Leave these selectors out (a third-party widget we do not control). */
  exclude?: string[];
  /** axe rule ids not to run; say why beside the call. */
  disableRules?: string[];
}

/** What axe.run() reports of a violation, the part read here. */
interface AxeViolation {
  id: string;
  impact?: string | null;
  help: string;
  helpUrl: string;
  nodes: Array<{ target: Array<string | string[]> }>;
}

let axeSourceText: string | undefined;
/** axe-core's browser script, the very one @axe-core/playwright injects (its own axe-core dependency). */
function axeSource(): string {
  if (axeSourceText === undefined) {
    const require = createRequire(import.meta.url);
    axeSourceText = (createRequire(require.resolve('@axe-core/playwright'))('axe-core') as { source: string }).source;
  }
  return axeSourceText;
}

/** axe-core's serious and critical violations on the page as it is now (every axe rule runs; minor and moderate are left out). */
export async function findSeriousA11yViolations(page: Page, options: A11yOptions = {}): Promise<A11yViolation[]> {
  // A modal fading in is half transparent: its contrast is measured once the finite transitions are
  // over (a spinner's endless animation never is).
  // A function, not a string: the dashboard's CSP refuses eval. (Typed by hand: tests have no DOM lib.)
  await page.waitForFunction(() =>
    (globalThis as unknown as { document: { getAnimations(): Array<{ playState: string; effect: { getTiming(): { iterations?: number } } | null }> } }).document
      .getAnimations()
      .every((animation) => animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity),
  );
  // axe.run() in the page itself, as @axe-core/playwright's legacy mode does (its default opens a blank
  // page per check to merge frames' results, which doubles its time; the dashboard has no frames),
  // but axe-core is injected once per document: analyze() evaluated its 650 kB source twice on every
  // check, and a page that navigates inside the app (the every-route crawl) keeps it.
  // Violations only: axe then details one node of each other result type instead of every one.
  if (!(await page.evaluate(() => typeof (globalThis as { axe?: { run?: unknown } }).axe?.run === 'function'))) {
    await page.evaluate(`${axeSource()};axe.configure({ allowedOrigins: ['<same_origin>'], branding: { application: 'playwright' } });`);
  }
  const context = { include: options.include ? [options.include] : [], exclude: options.exclude ?? [] };
  const rules = Object.fromEntries((options.disableRules ?? []).map((id) => [id, { enabled: false }]));
  const violations = await page.evaluate(
    ({ context, options }) => (globalThis as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: AxeViolation[] }> } }).axe.run(context, options).then((results) => results.violations),
    { context, options: { resultTypes: ['violations'], ...(options.disableRules?.length ? { rules } : {}) } },
  );
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      id: violation.id,
      impact: violation.impact as 'serious' | 'critical',
      help: violation.help,
      helpUrl: violation.helpUrl,
      targets: violation.nodes.map((node) => node.target.map((part) => (Array.isArray(part) ? part.join(' >>> ') : part)).join(' >>> ')),
    }));
}

const TARGETS_SHOWN = 5;

/** The violations as a list a person reads in a test failure (the first few elements of each). */
export function formatA11yViolations(violations: A11yViolation[]): string {
  return violations
    .map((v) => {
      const more = v.targets.length > TARGETS_SHOWN ? [`    … and ${v.targets.length - TARGETS_SHOWN} more`] : [];
      return [`- ${v.id} (${v.impact}): ${v.help} [${v.helpUrl}]`, ...v.targets.slice(0, TARGETS_SHOWN).map((target) => `    at ${target}`), ...more].join('\n');
    })
    .join('\n');
}

/** Fails the test listing every serious or critical axe-core violation (rule id, impact, elements). */
export async function expectNoSeriousA11yViolations(page: Page, options: A11yOptions = {}): Promise<void> {
  const violations = await findSeriousA11yViolations(page, options);
  if (violations.length > 0) {
    throw new Error(`${violations.length} serious or critical accessibility violation(s) on ${page.url()}:\n${formatA11yViolations(violations)}`);
  }
}
