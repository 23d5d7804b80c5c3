/**
 * Merchant authentication, for its tests: GET /merchant and POST /auth/token calls, tokens
 * issued by the server or forged with jose (by default exactly as the issuer signs: real key,
 * EdDSA, its kid), and the 401 every failure must be. `authFixture` binds these to a file's
 * context; call `init()` in beforeAll, after the context exists.
 */
import { createPrivateKey, type KeyObject, randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { SignJWT } from 'jose';
import { expect } from 'vitest';
import type { App } from '../../../src/http/types.ts';
import { expectErrorBody, type TestContext, type TestMerchant } from '../../helpers/app.ts';

export const MERCHANT_URL = '/api/v1/merchant';
export const TOKEN_URL = '/api/v1/auth/token';
export const JWKS_URL = '/api/v1/.well-known/jwks.json';
export const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
/** The one message of every key+secret failure: it must not reveal which part was wrong. */
export const BAD_KEY_OR_SECRET = 'Invalid API key or secret';

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
export const b64json = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
export const now = () => Math.floor(Date.now() / 1000);

export function parts(token: string): [string, string, string] {
  const [header, payload, signature] = token.split('.');
  if (header === undefined || payload === undefined || signature === undefined) throw new Error(`not a JWS: ${token}`);
  return [header, payload, signature];
}

export function expectUnauthorized(response: LightMyRequestResponse, message?: string) {
  const body = expectErrorBody(response, 401, 'UNAUTHORIZED');
  expect(body).not.toHaveProperty('details');
  if (message !== undefined) expect(body.message).toBe(message);
  return body;
}

export function authFixture(getCtx: () => TestContext) {
  let signingKey: KeyObject | undefined;
  let signingKid: string | undefined;

  /** Reads the server's signing key and its kid (from the JWKS); call in beforeAll. */
  async function init() {
    const ctx = getCtx();
    signingKey = createPrivateKey(ctx.config.jwt.privateKeyPem);
    const jwks = (await ctx.app.inject({ method: 'GET', url: JWKS_URL })).json() as { keys: Array<{ kid: string }> };
    signingKid = jwks.keys[0]!.kid;
  }

  const privateKey = (): KeyObject => {
    if (!signingKey) throw new Error('authFixture: call init() in beforeAll');
    return signingKey;
  };
  const kid = (): string => {
    if (!signingKid) throw new Error('authFixture: call init() in beforeAll');
    return signingKid;
  };

  function getMerchant(headers: Record<string, string>, app: App = getCtx().app): Promise<LightMyRequestResponse> {
    return app.inject({ method: 'GET', url: MERCHANT_URL, headers });
  }

  function requestToken(payload: unknown, app: App = getCtx().app, remoteAddress?: string): Promise<LightMyRequestResponse> {
    return app.inject({ method: 'POST', url: TOKEN_URL, payload: payload as Record<string, unknown>, ...(remoteAddress ? { remoteAddress } : {}) });
  }

  /** What GET /merchant must answer for this merchant, read independently through the service. */
  /** GET /merchant's answer: the record, and whether the sandbox is on. */
  async function expectedBody(merchant: TestMerchant) {
    return { ...(await getCtx().app.services.merchants.getMerchant(merchant.merchantId)), sandbox: getCtx().config.sandboxEnabled };
  }

  /** The claims our issuer puts in a token for this merchant, with overrides (undefined deletes). */
  function claimsFor(merchant: TestMerchant, overrides: Record<string, unknown> = {}): Record<string, unknown> {
    const { config } = getCtx();
    const issuedAt = now();
    const claims: Record<string, unknown> = {
      sub: merchant.merchantId,
      cid: merchant.credentialId,
      iss: config.jwt.issuer,
      aud: config.jwt.audience,
      jti: randomUUID(),
      iat: issuedAt,
      exp: issuedAt + 900,
      ...overrides,
    };
    for (const [name, value] of Object.entries(claims)) if (value === undefined) delete claims[name];
    return claims;
  }

  /** Signs claims with jose; by default exactly as the server would (real key, EdDSA, its kid). */
  function sign(claims: Record<string, unknown>, options: { key?: KeyObject | Uint8Array; header?: Record<string, unknown> } = {}): Promise<string> {
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'EdDSA', kid: kid(), typ: 'JWT', ...options.header })
      .sign(options.key ?? privateKey());
  }

  async function issuedToken(merchant: TestMerchant): Promise<string> {
    const response = await requestToken({ apiKey: merchant.apiKey, apiSecret: merchant.apiSecret });
    expect(response.statusCode).toBe(200);
    return (response.json() as { accessToken: string }).accessToken;
  }

  return { init, privateKey, kid, getMerchant, requestToken, expectedBody, claimsFor, sign, issuedToken };
}
