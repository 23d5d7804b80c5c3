/**
 * Operators for the back-office browser tests (/app/ops), through the documented API of the
 * service `startDashboardServer` runs: created with the admin token (pass `{ ADMIN_TOKEN }` in its
 * env), signed in, TOTP enrolled, and their `osid` cookie given to a browser context
 * (Path=/api/v1/admin, as the service sets it). Each test should use its own operators: a TOTP
 * code is accepted again within its 30 s window today, which a test must not rely on.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { BrowserContext } from 'playwright-core';
import { nextTotpCode } from './dashboard-server.ts';

/** An admin token of the required length (32+ characters), for `startDashboardServer({ ADMIN_TOKEN })`. */
export const TEST_ADMIN_TOKEN = 'browser-test-admin-token-0123456789abcdef';

export type OperatorRole = 'OPERATIONS' | 'COMPLIANCE' | 'FINANCE' | 'ADMIN' | 'VIEWER';

export interface OperatorCredentials {
  email: string;
  password: string;
}

export interface OperatorApiSession {
  /** `osid=…`, for a Cookie header. */
  cookie: string;
  csrfToken: string;
}

export interface SignedInOperatorSession extends OperatorCredentials, OperatorApiSession {
  id: string;
  role: OperatorRole;
  totpSecret: string;
}

let created = 0;

/** A new operator (POST /api/v1/admin/operators with the admin token): its email and temporary password. */
export async function createOperator(baseUrl: string, role: OperatorRole): Promise<OperatorCredentials & { id: string }> {
  const email = `ops-${role.toLowerCase()}-${Date.now()}-${++created}@example.com`;
  const response = await fetch(`${baseUrl}/api/v1/admin/operators`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email, role }),
  });
  if (response.status !== 201) throw new Error(`operator creation: ${response.status} ${await response.text()}`);
  const body = (await response.json()) as { operator: { id: string }; temporaryPassword: string };
  return { id: body.operator.id, email, password: body.temporaryPassword };
}

/** POST /api/v1/admin/auth/sessions (with a current code when `totpSecret` is given); anything but 201 throws. */
export async function operatorSignInByApi(baseUrl: string, operator: OperatorCredentials, totpSecret?: string): Promise<OperatorApiSession> {
  const body = { email: operator.email, password: operator.password, ...(totpSecret ? { totp: await nextTotpCode(totpSecret) } : {}) };
  const response = await fetch(`${baseUrl}/api/v1/admin/auth/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (response.status !== 201) throw new Error(`operator sign-in of ${operator.email}: ${response.status} ${await response.text()}`);
  const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0]!;
  return { cookie, csrfToken: ((await response.json()) as { csrfToken: string }).csrfToken };
}

/** A call to a back-office route with an operator session (cookie, and the CSRF token on writes). */
export function operatorFetch(baseUrl: string, session: OperatorApiSession, method: string, path: string, body?: unknown): Promise<Response> {
  const headers: Record<string, string> = { cookie: session.cookie, ...(method === 'GET' ? {} : { 'x-csrf-token': session.csrfToken }), ...(body === undefined ? {} : { 'content-type': 'application/json' }) };
  return fetch(`${baseUrl}/api/v1/admin${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
}

/** Enrols TOTP for an operator through the API (sign in, POST /operators/me/totp, confirm); answers the base32 secret. */
export async function enrolOperatorTotp(baseUrl: string, operator: OperatorCredentials): Promise<string> {
  const session = await operatorSignInByApi(baseUrl, operator);
  const enrolment = await operatorFetch(baseUrl, session, 'POST', '/operators/me/totp', {});
  if (enrolment.status !== 201) throw new Error(`operator TOTP enrolment: ${enrolment.status} ${await enrolment.text()}`);
  const { secret } = (await enrolment.json()) as { secret: string };
  const confirm = await operatorFetch(baseUrl, session, 'POST', '/operators/me/totp/confirm', { code: await nextTotpCode(secret) });
  if (confirm.status !== 204) throw new Error(`operator TOTP confirmation: ${confirm.status} ${await confirm.text()}`);
  return secret;
}

/** A new operator of `role`, TOTP enrolled, signed in with a code: the session a browser context is given. */
export async function signedInOperator(baseUrl: string, role: OperatorRole): Promise<SignedInOperatorSession> {
  const operator = await createOperator(baseUrl, role);
  const totpSecret = await enrolOperatorTotp(baseUrl, operator);
  return { ...operator, role, totpSecret, ...(await operatorSignInByApi(baseUrl, operator, totpSecret)) };
}

/** Gives a browser context the operator's `osid` cookie, scoped as the service scopes it (Path=/api/v1/admin). */
export async function addOperatorCookie(context: BrowserContext, baseUrl: string, session: OperatorApiSession): Promise<void> {
  const separator = session.cookie.indexOf('=');
  await context.addCookies([
    { name: session.cookie.slice(0, separator), value: session.cookie.slice(separator + 1), domain: new URL(baseUrl).hostname, path: '/api/v1/admin', httpOnly: true, sameSite: 'Strict' },
  ]);
}

/** A webhook receiver on loopback answering 200 to everything (the service allows loopback http outside production). */
export async function webhookSink(): Promise<{ url: string; server: Server; received: string[] }> {
  const received: string[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push(body);
      response.writeHead(200).end('ok');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks`, server, received };
}
