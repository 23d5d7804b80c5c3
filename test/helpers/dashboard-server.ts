/**
 * The service a browser test opens, started as an operator does after the README's `npm start`:
 * `node src/main.ts` in its own process on a free port, with a temporary DATA_DIR, on the
 * embedded defaults (PGlite, sandbox PSP and chain, development keys). Always PGlite, whatever
 * DATABASE_URL the suite has: the demo merchant and its demo OWNER are seeded only on a first
 * start of an empty embedded database, and that is the dashboard the README promises. The demo
 * owner has no TOTP yet (docs/architecture/people-and-sessions.md): its first session may only
 * enrol, so a page test either walks through enrolment or starts from signedInOwner().
 *
 * Speed: a first start creates the embedded database and runs every migration (15-30 s on a busy
 * two-core machine). The run does that once, in a template DATA_DIR under its scratch directory
 * (the first worker to need it builds it, the others wait), stops it cleanly, and starts every
 * server from a copy of it (a few seconds).
 * The copies are the same first start: same demo merchant, keys and owner password in each, but
 * every server has its own directory, database and port, so tests do not see each other's data.
 */
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Secret, TOTP } from 'otpauth';
import type { BrowserContext, Page } from 'playwright-core';
import { inject } from 'vitest';
import { startService } from './processes.ts';

export interface DashboardServer {
  /** `http://127.0.0.1:<port>`: the dashboard is at `${baseUrl}/app`, the API at `${baseUrl}/api/v1`. */
  baseUrl: string;
  dataDir: string;
  merchantId: string;
  /** The demo merchant's API key (headers X-API-Key and X-API-Secret). */
  apiKey: string;
  apiSecret: string;
  /** The demo OWNER, from DATA_DIR/demo-credentials.json: TOTP not enrolled. */
  owner: { email: string; password: string };
  operator: { email: string; password: string };
  /** Everything the process printed so far. */
  output(): string;
  /** SIGTERM, wait for the exit, remove DATA_DIR; answers the exit code (0 for a clean stop). */
  stop(): Promise<number | null>;
  /**
   * Stops the process cleanly (throws otherwise) and starts it again on the same DATA_DIR, its
   * settings plus `env` (e.g. `{ ROLES: 'api' }`: no worker from then on); `baseUrl` changes (a new
   * port), sessions and data stay.
   */
  restart(env: Record<string, string>): Promise<void>;
}

const BASE_ENV = { LOG_LEVEL: 'warn' };

/** Kept on globalThis: one template per worker process even if modules are loaded again. */
const TEMPLATE = Symbol.for('crypto-brl-exchange.test.dashboardTemplate');
const holder = globalThis as { [TEMPLATE]?: Promise<string> };

/**
 * The run's first-started, cleanly stopped DATA_DIR, one for all workers: the first worker to ask
 * claims it (an exclusive mkdir) and builds it, the others wait for its `ready` mark. A first start
 * costs 15-30 s of CPU on a busy two-core machine, so one per run instead of one per worker.
 */
function templateDataDir(): Promise<string> {
  holder[TEMPLATE] ??= (async () => {
    const dir = path.join(inject('runScratchDir'), 'dashboard-template');
    const ready = path.join(dir, '..', 'dashboard-template.ready');
    if (await claimed(`${dir}.claim`)) {
      await mkdir(dir, { recursive: true });
      const first = await startService(dir, BASE_ENV);
      const code = await first.stop();
      if (code !== 0) {
        await writeFile(ready, `failed: the template server exited with ${code}:\n${first.output()}`);
        throw new Error(`the template server exited with ${code}:\n${first.output()}`);
      }
      await writeFile(ready, 'ok');
      return dir;
    }
    for (const deadline = Date.now() + 180_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 250))) {
      const mark = await readFile(ready, 'utf8').catch(() => undefined);
      if (mark === 'ok') return dir;
      if (mark !== undefined) throw new Error(`another worker's template start ${mark}`);
    }
    throw new Error('no dashboard template from the worker building it within 180 s');
  })();
  return holder[TEMPLATE];
}

/** Whether this process made `lock` (so builds what it guards); false when another did first. */
async function claimed(lock: string): Promise<boolean> {
  try {
    await mkdir(lock);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}

/**
 * Starts the service (LOG_LEVEL=warn) from a copy of the worker's template DATA_DIR. `env` adds or
 * overrides settings, e.g. `{ ADMIN_TOKEN: '…32+ chars…' }` for /admin or
 * `{ SANDBOX_AUTO_COMPLETE_SECONDS: '1' }`; `fresh: true` makes a first start of its own instead
 * (settings that change what a first start creates).
 */
export async function startDashboardServer(env: Record<string, string> = {}, options: { fresh?: boolean } = {}): Promise<DashboardServer> {
  const dataDir = await mkdtemp(path.join(inject('runScratchDir'), 'dashboard-'));
  if (!options.fresh) await cp(await templateDataDir(), dataDir, { recursive: true });
  let service = await startService(dataDir, { ...BASE_ENV, ...env }).catch(async (err: unknown) => {
    await rm(dataDir, { recursive: true, force: true });
    throw err;
  });
  const demo = await service.demoCredentials();
  const server: DashboardServer = {
    baseUrl: service.base,
    dataDir,
    merchantId: demo.merchantId,
    apiKey: demo.apiKey,
    apiSecret: demo.apiSecret,
    owner: demo.owner,
    operator: demo.operator,
    output: () => service.output(),
    async stop() {
      const code = await service.stop();
      await rm(dataDir, { recursive: true, force: true });
      return code;
    },
    async restart(more) {
      const code = await service.stop();
      if (code !== 0) throw new Error(`restart: the service exited with ${code}:\n${service.output()}`);
      service = await startService(dataDir, { ...BASE_ENV, ...env, ...more });
      server.baseUrl = service.base;
    },
  };
  return server;
}

/** A 6-digit TOTP code (RFC 6238, the authenticator apps' defaults) for a base32 secret, at `at` (now by default). */
export function totpCode(secret: string, at: Date = new Date()): string {
  return new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: at.getTime() });
}

/** The last TOTP step handed out per secret: the service spends a code once (its step, and older ones). */
const lastSteps = new Map<string, number>();

/**
 * A code the service has not seen spent: the current step's, or the next one's (the service
 * accepts one step of drift) when the current one was handed out already; when both were, it
 * waits for the next step, as a person waits for the next code.
 */
export async function nextTotpCode(secret: string): Promise<string> {
  for (;;) {
    const current = Math.floor(Date.now() / 30_000);
    const step = Math.max(current, (lastSteps.get(secret) ?? -1) + 1);
    if (step <= current + 1) {
      lastSteps.set(secret, step);
      return totpCode(secret, new Date(step * 30_000));
    }
    await new Promise((resolve) => setTimeout(resolve, (current + 1) * 30_000 - Date.now() + 50));
  }
}

export interface ApiSession {
  /** `sid=…`, for a Cookie header. */
  cookie: string;
  csrfToken: string;
}

/** Signs in through the API (POST /api/v1/auth/sessions); `totpSecret` when TOTP is on. Any answer but 201 throws. */
export async function signInByApi(baseUrl: string, person: { email: string; password: string }, totpSecret?: string): Promise<ApiSession> {
  const body = { email: person.email, password: person.password, ...(totpSecret ? { totp: await nextTotpCode(totpSecret) } : {}) };
  const response = await fetch(`${baseUrl}/api/v1/auth/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (response.status !== 201) throw new Error(`sign-in of ${person.email}: ${response.status} ${await response.text()}`);
  const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0]!;
  return { cookie, csrfToken: ((await response.json()) as { csrfToken: string }).csrfToken };
}

/**
 * Enrols TOTP for a person through the API (sign in, POST /users/me/totp, confirm with a current
 * code), as the dashboard's enrolment page would; answers the base32 secret for nextTotpCode().
 * For page tests that start from a signed-in owner rather than test enrolment itself.
 */
export async function enrolTotp(baseUrl: string, person: { email: string; password: string }): Promise<string> {
  const session = await signInByApi(baseUrl, person);
  const headers = { cookie: session.cookie, 'x-csrf-token': session.csrfToken, 'content-type': 'application/json' };
  const enrolment = await fetch(`${baseUrl}/api/v1/users/me/totp`, { method: 'POST', headers, body: '{}' });
  if (enrolment.status !== 201) throw new Error(`TOTP enrolment of ${person.email}: ${enrolment.status} ${await enrolment.text()}`);
  const { secret } = (await enrolment.json()) as { secret: string };
  const confirm = await fetch(`${baseUrl}/api/v1/users/me/totp/confirm`, { method: 'POST', headers, body: JSON.stringify({ code: await nextTotpCode(secret) }) });
  if (confirm.status !== 204) throw new Error(`TOTP confirmation of ${person.email}: ${confirm.status} ${await confirm.text()}`);
  return secret;
}

/**
 * The demo owner with TOTP enrolled, and one session a test file's pages share (each test puts it
 * in its browser context with addSessionCookie). Two codes, two steps: no wait. A sign-in per test
 * would spend a TOTP step each, and from the third on each waits for the next 30 s step.
 */
export async function signedInOwner(server: Pick<DashboardServer, 'baseUrl' | 'owner'>): Promise<{ totpSecret: string; session: ApiSession }> {
  const totpSecret = await enrolTotp(server.baseUrl, server.owner);
  return { totpSecret, session: await signInByApi(server.baseUrl, server.owner, totpSecret) };
}

/**
 * Gives a browser context an API session's cookie, so its pages open signed in without going
 * through the sign-in page (a page reads its CSRF token from GET /auth/sessions/current, as after
 * a reload). For tests of other pages; the sign-in page's own test signs in through it.
 */
export async function addSessionCookie(context: BrowserContext, baseUrl: string, session: ApiSession): Promise<void> {
  const separator = session.cookie.indexOf('=');
  await context.addCookies([{ name: session.cookie.slice(0, separator), value: session.cookie.slice(separator + 1), url: baseUrl, httpOnly: true, sameSite: 'Strict' }]);
}

/**
 * Signs the browser in as another person. The open page is left first: a page that polls (a batch
 * awaiting its deposit, a dispute) would otherwise send a request between the cookies' removal and
 * the new one, meet a 401 and go to the sign-in page. The caller then opens the page it wants.
 */
export async function switchSession(page: Page, baseUrl: string, session: ApiSession): Promise<void> {
  await page.goto('about:blank');
  await page.context().clearCookies();
  await addSessionCookie(page.context(), baseUrl, session);
}

/**
 * A new person of the demo merchant, as the service allows (issue 38: nobody is handed another's
 * password): `session` (an OWNER or ADMIN) invites them (POST /api/v1/users/invitations), the link
 * is read from the service's output (its log email port, which writes at info: start the server
 * with `{ LOG_LEVEL: 'info' }`), and they accept it with a password of
 * their own. Answers the email and that password.
 */
export async function invitePerson(server: Pick<DashboardServer, 'baseUrl' | 'output'>, session: ApiSession, email: string, role: 'ADMIN' | 'DEVELOPER' | 'VIEWER'): Promise<{ email: string; password: string }> {
  const invited = await fetch(`${server.baseUrl}/api/v1/users/invitations`, {
    method: 'POST',
    headers: { cookie: session.cookie, 'x-csrf-token': session.csrfToken, 'content-type': 'application/json' },
    body: JSON.stringify({ email, role }),
  });
  if (invited.status !== 202) throw new Error(`invitation of ${email}: ${invited.status} ${await invited.text()}`);
  let token: string | undefined;
  for (let attempt = 0; attempt < 50 && !token; attempt++) {
    token = server.output().split('\n').filter((line) => line.includes(email) && line.includes('/app/accept-invitation#')).at(-1)?.match(/\/app\/accept-invitation#([A-Za-z0-9_-]{43})/)?.[1];
    if (!token) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (!token) throw new Error(`no invitation to ${email} in the service's output`);
  const password = `browser-person-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const accepted = await fetch(`${server.baseUrl}/api/v1/auth/invitations/${token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ password }) });
  if (accepted.status !== 201) throw new Error(`acceptance of ${email}'s invitation: ${accepted.status} ${await accepted.text()}`);
  return { email, password };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

/**
 * The merchant API with the server's demo key, as an integration would call it: the answer's JSON
 * (an empty body as {}), or an Error naming the call, its status and body for anything ≥ 300.
 * `server` is read at each call, so a suite can make this before its beforeAll starts the server.
 */
export function demoKeyApi(server: () => Pick<DashboardServer, 'baseUrl' | 'apiKey' | 'apiSecret'>) {
  return async (method: string, path: string, body?: unknown): Promise<Json> => {
    const { baseUrl, apiKey, apiSecret } = server();
    const response = await fetch(`${baseUrl}/api/v1${path}`, {
      method,
      headers: { 'x-api-key': apiKey, 'x-api-secret': apiSecret, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return text ? (JSON.parse(text) as Json) : {};
  };
}
