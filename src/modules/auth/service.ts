/**
 * Who is calling: a merchant by key+secret or by bearer token, or the operator by the admin
 * token. Every failure looks the same to the caller (401) except a disabled merchant with
 * valid credentials (403), so responses never reveal which part of a credential was wrong.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../errors.ts';
import type { AuthHeaders, MerchantAuth, OperatorAuth } from '../../http/auth.ts';
import type { MerchantsService } from '../merchants/service.ts';
import type { AccessToken, TokenIssuer } from './tokens.ts';
import { OPERATOR_SESSION_COOKIE, readCookie, SESSION_COOKIE } from '../../http/cookies.ts';

/** What the users module gives: the live session behind a cookie value, and its CSRF check. */
export interface SessionAuthenticator {
  authenticate(token: string): Promise<{ id: string; userId: string; merchantId: string; role: 'OWNER' | 'ADMIN' | 'DEVELOPER' | 'VIEWER'; totpEnabled: boolean } | undefined>;
  csrfMatches(sessionToken: string, header: string | undefined): boolean;
}

/** What the operators module gives: the live operator session behind a cookie value, and its CSRF check. */
export interface OperatorSessionAuthenticator {
  authenticate(token: string): Promise<{ id: string; operatorId: string; role: 'OPERATIONS' | 'COMPLIANCE' | 'FINANCE' | 'ADMIN' | 'VIEWER'; totpEnabled: boolean } | undefined>;
  csrfMatches(sessionToken: string, header: string | undefined): boolean;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const CSRF_REFUSED = () => new AppError('FORBIDDEN', 'Cookie-authenticated writes need the X-CSRF-Token header (from sign-in or GET /auth/sessions/current)', { reason: 'CSRF_TOKEN_MISSING_OR_INVALID' });


const unauthorized = (message: string) => new AppError('UNAUTHORIZED', message);
const DISABLED = () => new AppError('FORBIDDEN', 'Merchant is disabled');
const IP_NOT_ALLOWED = () => new AppError('FORBIDDEN', "This API key is not allowed from this address (its allowedIps)", { reason: 'IP_NOT_ALLOWED' });
const single = (value: string | string[] | undefined) => (Array.isArray(value) ? undefined : value);
const sha256 = (value: string) => createHash('sha256').update(value).digest();

export function createAuthService(deps: {
  merchants: Pick<MerchantsService, 'checkKeyAndSecret' | 'checkTokenCredential'>;
  tokens: TokenIssuer;
  adminToken: string | undefined;
  sessions?: SessionAuthenticator;
  operatorSessions?: OperatorSessionAuthenticator;
  serviceAccounts?: { authenticate(token: string): Promise<{ id: string; name: string; role: 'OPERATIONS' | 'COMPLIANCE' | 'FINANCE' | 'VIEWER'; pending: boolean } | undefined> };
}) {
  const { merchants, tokens } = deps;
  const adminTokenHash = deps.adminToken ? sha256(deps.adminToken) : undefined;

  /** An expired key is refused exactly as an unknown one (nothing tells it existed); a known key from a wrong address is 403. */
  async function exchange(apiKey: string, apiSecret: string, ip: string | undefined): Promise<MerchantAuth> {
    const check = await merchants.checkKeyAndSecret(apiKey, apiSecret, ip);
    if (check.ok) return check.scopes === null ? { merchantId: check.merchantId, credentialId: check.credentialId, method: 'api-key' } : { merchantId: check.merchantId, credentialId: check.credentialId, method: 'api-key', scopes: check.scopes };
    if (check.reason === 'merchant_disabled') throw DISABLED();
    if (check.reason === 'ip_not_allowed') throw IP_NOT_ALLOWED();
    throw unauthorized('Invalid API key or secret');
  }

  /**
   * A session cookie: the person's merchant, for the session's role to be checked by the route.
   * A cookie-authenticated write without the session's X-CSRF-Token is refused 403 (a forged
   * cross-site request carries the cookie, never the token).
   */
  async function fromSession(token: string, headers: AuthHeaders, method: string | undefined): Promise<MerchantAuth> {
    const session = deps.sessions ? await deps.sessions.authenticate(token) : undefined;
    if (!session) throw unauthorized('Session expired or revoked: sign in again (POST /api/v1/auth/sessions)');
    if (!SAFE_METHODS.has(method ?? 'GET') && !deps.sessions!.csrfMatches(token, single(headers['x-csrf-token']))) {
      throw CSRF_REFUSED();
    }
    return { merchantId: session.merchantId, credentialId: session.id, method: 'session', user: { id: session.userId, role: session.role, totpEnabled: session.totpEnabled } };
  }

  return {
    /** Authenticates a merchant from request headers and the caller's address (request.ip); throws 401 or 403. */
    async authenticateMerchant(headers: AuthHeaders, method?: string, ip?: string): Promise<MerchantAuth> {
      const apiKey = single(headers['x-api-key']);
      const apiSecret = single(headers['x-api-secret']);
      const authorization = headers.authorization;

      if (apiKey !== undefined || apiSecret !== undefined) {
        if (!apiKey || !apiSecret) throw unauthorized('Send both x-api-key and x-api-secret, or a bearer token');
        return exchange(apiKey, apiSecret, ip);
      }
      const sessionToken = authorization === undefined ? readCookie(headers.cookie, SESSION_COOKIE) : undefined;
      if (sessionToken) return fromSession(sessionToken, headers, method);
      if (authorization === undefined) {
        throw unauthorized('Missing credentials: send x-api-key and x-api-secret, Authorization: Bearer <token>, or a session cookie');
      }
      const match = /^Bearer ([A-Za-z0-9._~+/-]+=*)$/i.exec(authorization);
      if (!match?.[1]) throw unauthorized('Authorization must use the Bearer scheme');
      const subject = await tokens.verify(match[1]);
      if (!subject) throw unauthorized('Invalid or expired access token');
      const check = await merchants.checkTokenCredential(subject.merchantId, subject.credentialId, ip);
      if (check.ok) return check.scopes === null ? { ...subject, method: 'bearer' } : { ...subject, method: 'bearer', scopes: check.scopes };
      if (check.reason === 'merchant_disabled') throw DISABLED();
      if (check.reason === 'ip_not_allowed') throw IP_NOT_ALLOWED();
      throw unauthorized('Access token credential has been revoked');
    },

    /** POST /auth/token: key and secret in, a short-lived bearer token out. */
    async issueToken(apiKey: string, apiSecret: string, ip?: string): Promise<AccessToken> {
      const auth = await exchange(apiKey, apiSecret, ip);
      return tokens.issue({ merchantId: auth.merchantId, credentialId: auth.credentialId });
    },

    jwks: () => tokens.jwks(),

    /** The operator behind an `osid` cookie (the same session and CSRF rules as a merchant's user); undefined without one. */
    async authenticateOperator(headers: AuthHeaders, method: string): Promise<OperatorAuth | undefined> {
      const token = readCookie(headers.cookie, OPERATOR_SESSION_COOKIE);
      if (!token || !deps.operatorSessions) return undefined;
      const session = await deps.operatorSessions.authenticate(token);
      if (!session) throw unauthorized('Operator session expired or revoked: sign in again (POST /api/v1/admin/auth/sessions)');
      if (!SAFE_METHODS.has(method) && !deps.operatorSessions.csrfMatches(token, single(headers['x-csrf-token']))) throw CSRF_REFUSED();
      return { method: 'session', operatorId: session.operatorId, sessionId: session.id, role: session.role, totpEnabled: session.totpEnabled };
    },

    /** A service account behind `Authorization: Bearer svc_…`; undefined for any other header (the caller tries the rest); 401 unknown or revoked, 403 SERVICE_ACCOUNT_PENDING before its approval. */
    async authenticateServiceAccount(authorization: string | undefined): Promise<OperatorAuth | undefined> {
      const token = /^Bearer (svc_[A-Za-z0-9_-]+)$/.exec(authorization ?? '')?.[1];
      if (!token || !deps.serviceAccounts) return undefined;
      const account = await deps.serviceAccounts.authenticate(token);
      if (!account) throw unauthorized('Unknown or revoked service account token');
      // Only the token's holder gets here, so saying why tells a stranger nothing (docs/decisions/0031).
      if (account.pending) {
        throw new AppError('FORBIDDEN', 'This service account waits for a second operator: it works once another operator approves its SERVICE_ACCOUNT_ACTIVATE proposal (POST /api/v1/admin/approvals)', { reason: 'SERVICE_ACCOUNT_PENDING' });
      }
      return { method: 'service-account', serviceAccountId: account.id, name: account.name, role: account.role };
    },

    /** True when the Authorization header carries the configured admin token (constant time). */
    isAdmin(authorization: string | undefined): boolean {
      const token = /^Bearer (.+)$/i.exec(authorization ?? '')?.[1];
      return adminTokenHash !== undefined && token !== undefined && timingSafeEqual(sha256(token), adminTokenHash);
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
