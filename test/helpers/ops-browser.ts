/**
 * Operators for the back-office browser tests (/app/ops), through the documented API of the
 * service `startDashboardServer` runs: made as the service requires (two founders invited with the
 * admin token during its bootstrap, pass `{ ADMIN_TOKEN }` in its env; every other one through an
 * approved OPERATOR_CREATE), invited by email (the link read from the service's output, so pass
 * `{ LOG_LEVEL: 'info' }` too: the log email port writes at info, below startDashboardServer's
 * default warn), signed in, TOTP enrolled, and their `osid` cookie given to a browser context
 * (Path=/api/v1/admin, as the service sets it). Each code is spent once (nextTotpCode hands out
 * unspent ones); each test should still use its own operators.
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

/** What the helpers need of the service `startDashboardServer` runs: its address and its output (where the email port logs links). */
export type OpsServer = { baseUrl: string; output(): string };

/** The token of the last operator invitation the service emailed to `email` (its log email port writes the message to the output). */
export async function operatorInvitationToken(server: OpsServer, email: string): Promise<string> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const line = server.output().split('\n').filter((l) => l.includes(email) && l.includes('ops/accept-invitation#')).at(-1);
    const token = line?.match(/ops\/accept-invitation#([A-Za-z0-9_-]{43})/)?.[1];
    if (token) return token;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no operator invitation to ${email} in the service's output`);
}

/** Accepts the operator invitation emailed to `email` with a generated password. */
async function acceptOperatorInvitation(server: OpsServer, email: string): Promise<OperatorCredentials & { id: string }> {
  const password = `browser-test-password-${created}-${Date.now()}`;
  const token = await operatorInvitationToken(server, email);
  const response = await fetch(`${server.baseUrl}/api/v1/admin/auth/invitations/${token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ password }) });
  if (response.status !== 201) throw new Error(`operator invitation of ${email}: ${response.status} ${await response.text()}`);
  return { id: ((await response.json()) as { id: string }).id, email, password };
}

const newEmail = (role: string) => `ops-${role.toLowerCase()}-${Date.now()}-${++created}@example.com`;

async function inviteWithToken(server: OpsServer, email: string, role: OperatorRole): Promise<void> {
  const response = await fetch(`${server.baseUrl}/api/v1/admin/operators`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email, role }),
  });
  if (response.status !== 202) throw new Error(`operator invitation: ${response.status} ${await response.text()}`);
}

/**
 * Two ADMIN operators per service, made during its bootstrap by the admin token (both invited
 * before either enrols TOTP, so the token may still invite the second): after them, every operator
 * is made as the service requires, one proposing OPERATOR_CREATE and the other approving.
 */
const founders = new Map<string, Promise<[SignedInOperatorSession, SignedInOperatorSession]>>();

function foundersOf(server: OpsServer): Promise<[SignedInOperatorSession, SignedInOperatorSession]> {
  let pair = founders.get(server.baseUrl);
  if (!pair) {
    pair = (async () => {
      const emails = [newEmail('founder'), newEmail('founder')];
      for (const email of emails) await inviteWithToken(server, email, 'ADMIN');
      const sessions: SignedInOperatorSession[] = [];
      for (const email of emails) {
        const operator = await acceptOperatorInvitation(server, email);
        const totpSecret = await enrolOperatorTotp(server.baseUrl, operator);
        sessions.push({ ...operator, role: 'ADMIN', totpSecret, ...(await operatorSignInByApi(server.baseUrl, operator, totpSecret)) });
      }
      return [sessions[0]!, sessions[1]!] as [SignedInOperatorSession, SignedInOperatorSession];
    })();
    founders.set(server.baseUrl, pair);
  }
  return pair;
}

/** A new operator through four-eyes (one founder proposes OPERATOR_CREATE, the other approves); the invitation accepted: its email and password. */
export async function createOperator(server: OpsServer, role: OperatorRole): Promise<OperatorCredentials & { id: string }> {
  const [proposer, approver] = await foundersOf(server);
  const email = newEmail(role);
  const proposed = await operatorFetch(server.baseUrl, proposer, 'POST', '/approvals', { action: 'OPERATOR_CREATE', targetId: email, params: { role }, reason: 'A browser test needs this operator' });
  if (proposed.status !== 201) throw new Error(`OPERATOR_CREATE proposal: ${proposed.status} ${await proposed.text()}`);
  const { id } = (await proposed.json()) as { id: string };
  const approved = await operatorFetch(server.baseUrl, approver, 'POST', `/approvals/${id}/approve`, {});
  if (approved.status !== 200) throw new Error(`OPERATOR_CREATE approval: ${approved.status} ${await approved.text()}`);
  return acceptOperatorInvitation(server, email);
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
export async function signedInOperator(server: OpsServer, role: OperatorRole): Promise<SignedInOperatorSession> {
  const operator = await createOperator(server, role);
  const totpSecret = await enrolOperatorTotp(server.baseUrl, operator);
  return { ...operator, role, totpSecret, ...(await operatorSignInByApi(server.baseUrl, operator, totpSecret)) };
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
