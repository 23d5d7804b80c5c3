/**
 * Shared setup and helpers of the merchant authentication tests. Merchant authentication end to end: key+secret headers and bearer tokens on GET /merchant,
 * every way a credential or token can be wrong (401), disabled merchants (403), tenancy, the
 * JWKS, and the two rate limits (per IP on /auth/token, per credential on merchant routes).
 */
import { createPrivateKey, type KeyObject, randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, expect } from 'vitest';
import type { App } from '../../../src/http/types.ts';
import { createTestContext, expectErrorBody, type TestContext, type TestMerchant } from '../../helpers/app.ts';

export const MERCHANT_URL = '/api/v1/merchant';
export const TOKEN_URL = '/api/v1/auth/token';
export const JWKS_URL = '/api/v1/.well-known/jwks.json';
export const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
/** The one message of every key+secret failure: it must not reveal which part was wrong. */
export const BAD_KEY_OR_SECRET = 'Invalid API key or secret';

export let ctx: TestContext;
export let privateKey: KeyObject;
export let kid: string;
export let merchantA: TestMerchant;
export let merchantB: TestMerchant;


export function getMerchant(headers: Record<string, string>, app: App = ctx.app): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'GET', url: MERCHANT_URL, headers });
}

export function requestToken(payload: unknown, app: App = ctx.app, remoteAddress?: string): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'POST', url: TOKEN_URL, payload: payload as Record<string, unknown>, ...(remoteAddress ? { remoteAddress } : {}) });
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
export const b64json = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
export const now = () => Math.floor(Date.now() / 1000);

/** What GET /merchant must answer for this merchant, read independently through the service. */
export async function expectedBody(merchant: TestMerchant) {
  return ctx.app.services.merchants.getMerchant(merchant.merchantId);
}

/** The claims our issuer puts in a token for this merchant, with overrides (undefined deletes). */
export function claimsFor(merchant: TestMerchant, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const issuedAt = now();
  const claims: Record<string, unknown> = {
    sub: merchant.merchantId,
    cid: merchant.credentialId,
    iss: ctx.config.jwt.issuer,
    aud: ctx.config.jwt.audience,
    jti: randomUUID(),
    iat: issuedAt,
    exp: issuedAt + 900,
    ...overrides,
  };
  for (const [name, value] of Object.entries(claims)) if (value === undefined) delete claims[name];
  return claims;
}

/** Signs claims with jose; by default exactly as the server would (real key, EdDSA, its kid). */
export function sign(
  claims: Record<string, unknown>,
  options: { key?: KeyObject | Uint8Array; header?: Record<string, unknown> } = {},
): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'EdDSA', kid, typ: 'JWT', ...options.header })
    .sign(options.key ?? privateKey);
}

export function parts(token: string): [string, string, string] {
  const [header, payload, signature] = token.split('.');
  if (header === undefined || payload === undefined || signature === undefined) throw new Error(`not a JWS: ${token}`);
  return [header, payload, signature];
}

export async function issuedToken(merchant: TestMerchant): Promise<string> {
  const response = await requestToken({ apiKey: merchant.apiKey, apiSecret: merchant.apiSecret });
  expect(response.statusCode).toBe(200);
  return (response.json() as { accessToken: string }).accessToken;
}

export function expectUnauthorized(response: LightMyRequestResponse, message?: string) {
  const body = expectErrorBody(response, 401, 'UNAUTHORIZED');
  expect(body).not.toHaveProperty('details');
  if (message !== undefined) expect(body.message).toBe(message);
  return body;
}

/** Opens the test context (two merchants, the signing key and its kid) before the calling file's tests and closes it after them. */
export function useAuthContext(): void {
  beforeAll(async () => {
    ctx = await createTestContext();
    privateKey = createPrivateKey(ctx.config.jwt.privateKeyPem);
    merchantA = await ctx.createMerchant('Merchant A');
    merchantB = await ctx.createMerchant('Merchant B');
    const jwks = (await ctx.app.inject({ method: 'GET', url: JWKS_URL })).json() as { keys: Array<{ kid: string }> };
    kid = jwks.keys[0]!.kid;
  });

  afterAll(async () => {
    await ctx?.close();
  });
}
