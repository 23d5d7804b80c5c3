/**
 * Authentication hooks. Protected routes are registered inside a scope that carries one of
 * these hooks, so a route cannot be mounted there without its guard; they run on `onRequest`,
 * before the body is read, so an unauthenticated caller costs no parsing.
 */
import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { AppError } from '../errors.ts';
import type { AuthFailureLimiter } from './auth-failures.ts';

/** Who a merchant request comes from, as the auth module establishes it. */
export interface MerchantAuth {
  merchantId: string;
  /** The API credential, or for a session the session's id. */
  credentialId: string;
  method: 'api-key' | 'bearer' | 'session';
  /** The signed-in person, for a session (docs/architecture/people-and-sessions.md). */
  user?: SessionUser;
  /** A restricted API key's scopes (and its bearer tokens'): absent is full access (merchants/scopes.ts). */
  scopes?: readonly string[];
}

export interface SessionUser {
  id: string;
  role: 'OWNER' | 'ADMIN' | 'DEVELOPER' | 'VIEWER';
  totpEnabled: boolean;
}

/**
 * Who a back-office request comes from: the admin token (bootstrap and automation: every use is
 * audited) or a signed-in operator (src/modules/operators/).
 */
export type OperatorAuth =
  | { method: 'admin-token' }
  /** Automation's own credential (`Bearer svc_…`): a role, never ADMIN, no four-eyes vote. */
  | { method: 'service-account'; serviceAccountId: string; name: string; role: 'OPERATIONS' | 'COMPLIANCE' | 'FINANCE' | 'VIEWER' }
  | { method: 'session'; operatorId: string; sessionId: string; role: 'OPERATIONS' | 'COMPLIANCE' | 'FINANCE' | 'ADMIN' | 'VIEWER'; totpEnabled: boolean };

export interface AuthHeaders {
  'x-api-key'?: string | string[] | undefined;
  'x-api-secret'?: string | string[] | undefined;
  authorization?: string | undefined;
  cookie?: string | undefined;
  'x-csrf-token'?: string | string[] | undefined;
}

/** What the guards need from the auth module (wired by the app, so http imports no module). */
export interface Authenticator {
  /** `method`: the request's, for the session's CSRF rule (writes need X-CSRF-Token). */
  /** `ip`: the caller's address as Fastify derives it (TRUST_PROXY), for a key's allow-list. */
  authenticateMerchant(headers: AuthHeaders, method?: string, ip?: string): Promise<MerchantAuth>;
  isAdmin(authorization: string | undefined): boolean;
  /** A service account's bearer token (`Bearer svc_…`): its identity, or undefined when the header holds none; throws 401 for a revoked or unknown one, 403 SERVICE_ACCOUNT_PENDING for one no second operator has approved yet. */
  authenticateServiceAccount(authorization: string | undefined): Promise<OperatorAuth | undefined>;
  /** An operator's session cookie, or undefined when the request carries none; throws 401 (expired) or 403 (CSRF). */
  authenticateOperator(headers: AuthHeaders, method: string): Promise<OperatorAuth | undefined>;
}

declare module 'fastify' {
  interface FastifyRequest {
    merchantAuth: MerchantAuth | null;
    operatorAuth: OperatorAuth | null;
  }
}

/** The authenticated merchant's id: the only thing that identifies the tenant. */
export function merchantIdOf(request: FastifyRequest): string {
  if (!request.merchantAuth) throw new Error('merchantIdOf called on a route outside the authenticated scope');
  return request.merchantAuth.merchantId;
}

/** Every failed attempt counts against the caller's address; over the limit, no lookup happens (auth-failures.ts). */
export function requireMerchant(auth: Authenticator, failures: AuthFailureLimiter): onRequestAsyncHookHandler {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    failures.refuseWhileBlocked(request.ip, reply);
    request.merchantAuth = await failures.counting(request.ip, () => auth.authenticateMerchant(request.headers, request.method, request.ip));
  };
}

/**
 * Back-office routes take an operator's session cookie or `Authorization: Bearer <ADMIN_TOKEN>`.
 * Valid merchant credentials are answered 403 (known caller, not allowed), anything else 401.
 */
export function requireOperator(auth: Authenticator, failures: AuthFailureLimiter): onRequestAsyncHookHandler {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    failures.refuseWhileBlocked(request.ip, reply);
    await failures.counting(request.ip, () => admitAdmin(auth, request));
  };
}

async function admitAdmin(auth: Authenticator, request: FastifyRequest): Promise<void> {
  if (auth.isAdmin(request.headers.authorization)) {
    request.operatorAuth = { method: 'admin-token' };
    return;
  }
  const serviceAccount = await auth.authenticateServiceAccount(request.headers.authorization);
  if (serviceAccount) {
    request.operatorAuth = serviceAccount;
    return;
  }
  const operator = request.headers.authorization === undefined ? await auth.authenticateOperator(request.headers, request.method) : undefined;
  if (operator) {
    request.operatorAuth = operator;
    return;
  }
  // A known merchant (even a disabled one) is refused as not allowed, anyone else as unknown.
  const knownMerchant = await auth.authenticateMerchant(request.headers).then(
    () => true,
    (err: unknown) => err instanceof AppError && err.code === 'FORBIDDEN',
  );
  if (knownMerchant) throw new AppError('FORBIDDEN', 'This route is for operators only');
  throw new AppError('UNAUTHORIZED', 'Back-office routes require an operator session (POST /api/v1/admin/auth/sessions) or Authorization: Bearer <ADMIN_TOKEN>');
}
