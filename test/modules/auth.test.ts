/**
 * Merchant authentication end to end: key+secret headers and bearer tokens on GET /merchant,
 * every way a credential or token can be wrong (401), disabled merchants (403), tenancy, the
 * JWKS, and the two rate limits (per IP on /auth/token, per credential on merchant routes).
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, randomBytes, randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { createLocalJWKSet, decodeProtectedHeader, exportJWK, jwtVerify, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/http/types.ts';
import { createTestContext, expectErrorBody, type TestContext, type TestMerchant } from '../helpers/app.ts';

const MERCHANT_URL = '/api/v1/merchant';
const TOKEN_URL = '/api/v1/auth/token';
const JWKS_URL = '/api/v1/.well-known/jwks.json';
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
/** The one message of every key+secret failure: it must not reveal which part was wrong. */
const BAD_KEY_OR_SECRET = 'Invalid API key or secret';

let ctx: TestContext;
let privateKey: KeyObject;
let kid: string;
let merchantA: TestMerchant;
let merchantB: TestMerchant;

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

function getMerchant(headers: Record<string, string>, app: App = ctx.app): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'GET', url: MERCHANT_URL, headers });
}

function requestToken(payload: unknown, app: App = ctx.app, remoteAddress?: string): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'POST', url: TOKEN_URL, payload: payload as Record<string, unknown>, ...(remoteAddress ? { remoteAddress } : {}) });
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const b64json = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const now = () => Math.floor(Date.now() / 1000);

/** What GET /merchant must answer for this merchant, read independently through the service. */
async function expectedBody(merchant: TestMerchant) {
  return ctx.app.services.merchants.getMerchant(merchant.merchantId);
}

/** The claims our issuer puts in a token for this merchant, with overrides (undefined deletes). */
function claimsFor(merchant: TestMerchant, overrides: Record<string, unknown> = {}): Record<string, unknown> {
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
function sign(
  claims: Record<string, unknown>,
  options: { key?: KeyObject | Uint8Array; header?: Record<string, unknown> } = {},
): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'EdDSA', kid, typ: 'JWT', ...options.header })
    .sign(options.key ?? privateKey);
}

function parts(token: string): [string, string, string] {
  const [header, payload, signature] = token.split('.');
  if (header === undefined || payload === undefined || signature === undefined) throw new Error(`not a JWS: ${token}`);
  return [header, payload, signature];
}

async function issuedToken(merchant: TestMerchant): Promise<string> {
  const response = await requestToken({ apiKey: merchant.apiKey, apiSecret: merchant.apiSecret });
  expect(response.statusCode).toBe(200);
  return (response.json() as { accessToken: string }).accessToken;
}

function expectUnauthorized(response: LightMyRequestResponse, message?: string) {
  const body = expectErrorBody(response, 401, 'UNAUTHORIZED');
  expect(body).not.toHaveProperty('details');
  if (message !== undefined) expect(body.message).toBe(message);
  return body;
}

describe('GET /merchant with valid credentials', () => {
  it('authenticates with x-api-key and x-api-secret', async () => {
    const response = await getMerchant(merchantA.headers);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toEqual({ id: merchantA.merchantId, name: 'Merchant A', status: 'ACTIVE', createdAt: expect.stringMatching(ISO_TIMESTAMP) });
    expect(body).toEqual(await expectedBody(merchantA));
    expect(response.headers['x-request-id']).toEqual(expect.any(String));
  });

  it('POST /auth/token answers exactly {accessToken, tokenType, expiresIn} and the token authenticates', async () => {
    const response = await requestToken({ apiKey: merchantA.apiKey, apiSecret: merchantA.apiSecret });
    expect(response.statusCode).toBe(200);
    const body = response.json() as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['accessToken', 'expiresIn', 'tokenType']);
    expect(body).toEqual({ accessToken: expect.stringMatching(JWT_SHAPE), tokenType: 'Bearer', expiresIn: 900 });

    const withToken = await getMerchant(bearer(body.accessToken as string));
    expect(withToken.statusCode).toBe(200);
    expect(withToken.json()).toEqual(await expectedBody(merchantA));
  });

  it('accepts the scheme name in any case ("bearer")', async () => {
    const token = await issuedToken(merchantA);
    const response = await getMerchant({ authorization: `bearer ${token}` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(await expectedBody(merchantA));
  });

  it('control: a token forged with jose exactly like the issuer (real key) is accepted', async () => {
    const response = await getMerchant(bearer(await sign(claimsFor(merchantA))));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(await expectedBody(merchantA));
  });

  it('tenancy: each merchant sees itself, by key+secret and by token', async () => {
    const [a, b] = [await expectedBody(merchantA), await expectedBody(merchantB)];
    expect(a.id).not.toBe(b.id);
    for (const [merchant, expected] of [
      [merchantA, a],
      [merchantB, b],
    ] as const) {
      const byKey = await getMerchant(merchant.headers);
      expect(byKey.statusCode).toBe(200);
      expect(byKey.json()).toEqual(expected);
      const byToken = await getMerchant(await ctx.bearerFor(merchant));
      expect(byToken.statusCode).toBe(200);
      expect(byToken.json()).toEqual(expected);
    }
  });
});

describe('GET /merchant answers 401 UNAUTHORIZED', () => {
  const cases: Array<[string, () => Promise<Record<string, string>>, string?]> = [
    ['no credentials at all', async () => ({})],
    ['only x-api-key', async () => ({ 'x-api-key': merchantA.apiKey })],
    ['only x-api-secret', async () => ({ 'x-api-secret': merchantA.apiSecret })],
    ['an empty x-api-key with the right secret', async () => ({ 'x-api-key': '', 'x-api-secret': merchantA.apiSecret })],
    ['a wrong secret', async () => ({ 'x-api-key': merchantA.apiKey, 'x-api-secret': `sk_${randomBytes(32).toString('base64url')}` }), BAD_KEY_OR_SECRET],
    ['an unknown, well-formed key', async () => ({ 'x-api-key': `mk_${randomBytes(16).toString('hex')}`, 'x-api-secret': merchantA.apiSecret }), BAD_KEY_OR_SECRET],
    ['a malformed key', async () => ({ 'x-api-key': 'not-a-key', 'x-api-secret': merchantA.apiSecret }), BAD_KEY_OR_SECRET],
    ['an upper-cased (malformed) key', async () => ({ 'x-api-key': merchantA.apiKey.toUpperCase(), 'x-api-secret': merchantA.apiSecret }), BAD_KEY_OR_SECRET],
    ["merchant A's key with merchant B's secret", async () => ({ 'x-api-key': merchantA.apiKey, 'x-api-secret': merchantB.apiSecret }), BAD_KEY_OR_SECRET],
    ["merchant B's key with merchant A's secret", async () => ({ 'x-api-key': merchantB.apiKey, 'x-api-secret': merchantA.apiSecret }), BAD_KEY_OR_SECRET],
    ['Authorization: Basic', async () => ({ authorization: `Basic ${Buffer.from(`${merchantA.apiKey}:${merchantA.apiSecret}`).toString('base64')}` })],
    ['Authorization: Bearer with nothing after it', async () => ({ authorization: 'Bearer ' })],
    ['Authorization: Bearer with garbage', async () => bearer('garbage')],
    ['Authorization: Bearer with three garbage segments', async () => bearer('aaa.bbb.ccc')],
    ['a bearer token that is the API secret', async () => bearer(merchantA.apiSecret)],
    [
      "a real token whose payload says sub = merchant B's id (signature kept)",
      async () => {
        const [header, payload, signature] = parts(await issuedToken(merchantA));
        const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
        expect(claims.sub).toBe(merchantA.merchantId);
        return bearer([header, b64json({ ...claims, sub: merchantB.merchantId }), signature].join('.'));
      },
    ],
    [
      "a real token whose payload says cid = merchant B's credential (signature kept)",
      async () => {
        const [header, payload, signature] = parts(await issuedToken(merchantA));
        const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
        return bearer([header, b64json({ ...claims, sub: merchantB.merchantId, cid: merchantB.credentialId }), signature].join('.'));
      },
    ],
    [
      'a real token with one signature bit flipped',
      async () => {
        const [header, payload, signature] = parts(await issuedToken(merchantA));
        const bytes = Buffer.from(signature, 'base64url');
        bytes.writeUInt8(bytes.readUInt8(0) ^ 0x01, 0);
        return bearer([header, payload, bytes.toString('base64url')].join('.'));
      },
    ],
    [
      'a real token without its signature',
      async () => {
        const [header, payload] = parts(await issuedToken(merchantA));
        return bearer(`${header}.${payload}.`);
      },
    ],
    ['an alg:none token', async () => bearer(`${b64json({ alg: 'none', typ: 'JWT' })}.${b64json(claimsFor(merchantA))}.`)],
    ['an alg:none token carrying the real kid', async () => bearer(`${b64json({ alg: 'none', kid, typ: 'JWT' })}.${b64json(claimsFor(merchantA))}.`)],
    ['an HS256 token signed with an arbitrary secret', async () => bearer(await sign(claimsFor(merchantA), { key: randomBytes(32), header: { alg: 'HS256' } }))],
    [
      'an HS256 token keyed with the public key PEM (algorithm confusion)',
      async () => {
        const pem = createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString();
        return bearer(await sign(claimsFor(merchantA), { key: new TextEncoder().encode(pem), header: { alg: 'HS256' } }));
      },
    ],
    [
      'an HS256 token keyed with the raw public key bytes (the JWK x)',
      async () => {
        const jwk = await exportJWK(createPublicKey(privateKey));
        return bearer(await sign(claimsFor(merchantA), { key: Buffer.from(String(jwk.x), 'base64url'), header: { alg: 'HS256' } }));
      },
    ],
    ['a token signed by another Ed25519 key, with the real kid', async () => bearer(await sign(claimsFor(merchantA), { key: generateKeyPairSync('ed25519').privateKey }))],
    [
      'a token signed by another Ed25519 key, without kid',
      async () => {
        const other = generateKeyPairSync('ed25519').privateKey;
        return bearer(await new SignJWT(claimsFor(merchantA)).setProtectedHeader({ alg: 'EdDSA', typ: 'JWT' }).sign(other));
      },
    ],
    ['an expired token (real key)', async () => bearer(await sign(claimsFor(merchantA, { iat: now() - 1000, exp: now() - 100 })))],
    ['a token with the wrong aud (real key)', async () => bearer(await sign(claimsFor(merchantA, { aud: 'some-other-api' })))],
    ['a token with the wrong iss (real key)', async () => bearer(await sign(claimsFor(merchantA, { iss: 'https://evil.example' })))],
    ['a token without cid (real key)', async () => bearer(await sign(claimsFor(merchantA, { cid: undefined })))],
    ['a token without jti (real key)', async () => bearer(await sign(claimsFor(merchantA, { jti: undefined })))],
    ['a token without sub (real key)', async () => bearer(await sign(claimsFor(merchantA, { sub: undefined })))],
    ['a token without exp (real key)', async () => bearer(await sign(claimsFor(merchantA, { exp: undefined })))],
    [
      "a token (real key) naming merchant B as sub but merchant A's credential",
      async () => bearer(await sign(claimsFor(merchantA, { sub: merchantB.merchantId }))),
      'Access token credential has been revoked',
    ],
    [
      'a token (real key) for an unknown merchant and credential',
      async () => bearer(await sign(claimsFor(merchantA, { sub: randomUUID(), cid: randomUUID() }))),
      'Access token credential has been revoked',
    ],
  ];

  it.each(cases)('%s', async (_name, headers, message) => {
    const response = await getMerchant(await headers());
    expectUnauthorized(response, message);
  });

  it('a token and key+secret of a revoked credential, including tokens issued before revocation', async () => {
    const merchant = await ctx.createMerchant('Revoked credential');
    const token = await issuedToken(merchant);
    expect((await getMerchant(bearer(token))).statusCode).toBe(200);
    expect((await getMerchant(merchant.headers)).statusCode).toBe(200);

    const revoked = await ctx.app.services.merchants.revokeCredential(merchant.merchantId, merchant.credentialId, { actor: 'test' });
    expect(revoked.revokedAt).toMatch(ISO_TIMESTAMP);

    expectUnauthorized(await getMerchant(bearer(token)), 'Access token credential has been revoked');
    expectUnauthorized(await getMerchant(merchant.headers), BAD_KEY_OR_SECRET);
    expectUnauthorized(await requestToken({ apiKey: merchant.apiKey, apiSecret: merchant.apiSecret }), BAD_KEY_OR_SECRET);
    // A fresh token signed by the real key for the revoked credential is refused as well.
    expectUnauthorized(await getMerchant(bearer(await sign(claimsFor(merchant)))), 'Access token credential has been revoked');

    // The merchant's other credentials are unaffected.
    const second = await ctx.app.services.merchants.issueCredential(merchant.merchantId, { actor: 'test' });
    const response = await getMerchant({ 'x-api-key': second.apiKey, 'x-api-secret': second.apiSecret });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(await expectedBody(merchant));
  });
});

describe('POST /auth/token', () => {
  it('answers 401 for a wrong secret, an unknown key, a malformed key and a cross-merchant pair', async () => {
    const wrongSecret = `sk_${randomBytes(32).toString('base64url')}`;
    for (const payload of [
      { apiKey: merchantA.apiKey, apiSecret: wrongSecret },
      { apiKey: `mk_${randomBytes(16).toString('hex')}`, apiSecret: merchantA.apiSecret },
      { apiKey: 'mk_nope', apiSecret: merchantA.apiSecret },
      { apiKey: merchantA.apiKey, apiSecret: merchantB.apiSecret },
    ]) {
      expectUnauthorized(await requestToken(payload), BAD_KEY_OR_SECRET);
    }
  });

  it('answers 400 VALIDATION_ERROR naming a missing field', async () => {
    const body = expectErrorBody(await requestToken({ apiKey: merchantA.apiKey }), 400, 'VALIDATION_ERROR');
    expect(body.details).toEqual({ 'body.apiSecret': 'is required' });

    const both = expectErrorBody(await requestToken({}), 400, 'VALIDATION_ERROR');
    expect(both.details).toEqual({ 'body.apiKey': 'is required', 'body.apiSecret': 'is required' });
  });

  it('answers 400 for an unknown property and for a non-string secret', async () => {
    const extra = expectErrorBody(
      await requestToken({ apiKey: merchantA.apiKey, apiSecret: merchantA.apiSecret, merchantId: merchantB.merchantId }),
      400,
      'VALIDATION_ERROR',
    );
    expect(extra.details).toEqual({ 'body.merchantId': 'is not an allowed property' });

    const wrongType = expectErrorBody(await requestToken({ apiKey: merchantA.apiKey, apiSecret: 12345 }), 400, 'VALIDATION_ERROR');
    expect(Object.keys(wrongType.details ?? {})).toEqual(['body.apiSecret']);
  });
});

describe('disabled merchant', () => {
  it('is 403 FORBIDDEN by key+secret, by a token issued before, and on /auth/token; a wrong secret stays 401', async () => {
    const merchant = await ctx.createMerchant('Soon disabled');
    const token = await issuedToken(merchant);
    const merchants = ctx.app.services.merchants;

    const disabled = await merchants.setMerchantStatus(merchant.merchantId, 'DISABLED', { actor: 'test' });
    expect(disabled.status).toBe('DISABLED');
    try {
      expectErrorBody(await getMerchant(merchant.headers), 403, 'FORBIDDEN');
      expectErrorBody(await getMerchant(bearer(token)), 403, 'FORBIDDEN');
      expectErrorBody(await requestToken({ apiKey: merchant.apiKey, apiSecret: merchant.apiSecret }), 403, 'FORBIDDEN');

      // Without the right secret, the caller learns nothing about the merchant's status.
      const wrong = `sk_${randomBytes(32).toString('base64url')}`;
      expectUnauthorized(await getMerchant({ 'x-api-key': merchant.apiKey, 'x-api-secret': wrong }), BAD_KEY_OR_SECRET);
      expectUnauthorized(await requestToken({ apiKey: merchant.apiKey, apiSecret: wrong }), BAD_KEY_OR_SECRET);

      // Other merchants are unaffected.
      expect((await getMerchant(merchantA.headers)).statusCode).toBe(200);
    } finally {
      const enabled = await merchants.setMerchantStatus(merchant.merchantId, 'ACTIVE', { actor: 'test' });
      expect(enabled.status).toBe('ACTIVE');
    }

    const expected = await expectedBody(merchant);
    expect(expected.status).toBe('ACTIVE');
    for (const headers of [merchant.headers, bearer(token), bearer(await issuedToken(merchant))]) {
      const response = await getMerchant(headers);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual(expected);
    }
  });
});

describe('GET /.well-known/jwks.json', () => {
  it('needs no credentials and publishes the one Ed25519 key that verifies issued tokens', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: JWKS_URL });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=300');
    const jwks = response.json() as { keys: Array<Record<string, unknown>> };

    const publicJwk = await exportJWK(createPublicKey(privateKey));
    expect(jwks).toEqual({ keys: [{ kty: 'OKP', crv: 'Ed25519', x: publicJwk.x, kid: expect.any(String), alg: 'EdDSA', use: 'sig' }] });

    const token = await issuedToken(merchantA);
    const header = decodeProtectedHeader(token);
    expect(header).toEqual({ alg: 'EdDSA', kid: jwks.keys[0]!.kid, typ: 'JWT' });

    const { payload } = await jwtVerify(token, createLocalJWKSet(jwks as Parameters<typeof createLocalJWKSet>[0]), {
      algorithms: ['EdDSA'],
      issuer: ctx.config.jwt.issuer,
      audience: ctx.config.jwt.audience,
    });
    expect(payload.sub).toBe(merchantA.merchantId);
    expect(payload.cid).toBe(merchantA.credentialId);
    expect(payload.iss).toBe(ctx.config.jwt.issuer);
    expect(payload.aud).toBe(ctx.config.jwt.audience);
    expect(payload.jti).toEqual(expect.stringMatching(/^[0-9a-f-]{36}$/));
    expect(payload.exp! - payload.iat!).toBe(900);
    expect(Math.abs(payload.iat! - now())).toBeLessThanOrEqual(5);
    expect(Object.keys(payload).sort()).toEqual(['aud', 'cid', 'exp', 'iat', 'iss', 'jti', 'sub']);

    // Each token gets its own jti.
    const other = await jwtVerify(await issuedToken(merchantA), createLocalJWKSet(jwks as Parameters<typeof createLocalJWKSet>[0]));
    expect(other.payload.jti).not.toBe(payload.jti);
  });
});

describe('rate limiting', () => {
  it('POST /auth/token: the third request per minute from one IP is 429 RATE_LIMITED with retry-after', async () => {
    const app = await ctx.buildApp({ TOKEN_RATE_LIMIT_PER_MINUTE: '2' });
    const payload = { apiKey: merchantA.apiKey, apiSecret: merchantA.apiSecret };
    expect((await requestToken(payload, app)).statusCode).toBe(200);
    expect((await requestToken(payload, app)).statusCode).toBe(200);

    const limited = await requestToken(payload, app);
    const body = expectErrorBody(limited, 429, 'RATE_LIMITED');
    const retryAfter = Number(limited.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(body.details).toEqual({ retryAfterSeconds: retryAfter });

    // Counted per client IP: the same credential from another address still gets a token,
    // and any other merchant from the limited address is refused too.
    expect((await requestToken(payload, app, '10.1.2.3')).statusCode).toBe(200);
    expectErrorBody(await requestToken({ apiKey: merchantB.apiKey, apiSecret: merchantB.apiSecret }, app), 429, 'RATE_LIMITED');
    // The default app (60/minute) is not affected by the other app's counters.
    expect((await requestToken(payload)).statusCode).toBe(200);
  });

  it('merchant routes: the third request per minute with one credential is 429; other credentials are unaffected', async () => {
    const app = await ctx.buildApp({ RATE_LIMIT_PER_MINUTE: '2' });
    const merchant = await ctx.createMerchant('Rate limited');
    expect((await getMerchant(merchant.headers, app)).statusCode).toBe(200);
    expect((await getMerchant(merchant.headers, app)).statusCode).toBe(200);

    const limited = await getMerchant(merchant.headers, app);
    expectErrorBody(limited, 429, 'RATE_LIMITED');
    const retryAfter = Number(limited.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);

    // The limit belongs to the credential, whichever way it is presented.
    expectErrorBody(await getMerchant(await ctx.bearerFor(merchant), app), 429, 'RATE_LIMITED');

    // Another merchant, and another credential of the same merchant, have their own budgets.
    const other = await getMerchant(merchantB.headers, app);
    expect(other.statusCode).toBe(200);
    expect(other.json()).toEqual(await expectedBody(merchantB));
    const second = await ctx.app.services.merchants.issueCredential(merchant.merchantId, { actor: 'test' });
    const secondResponse = await getMerchant({ 'x-api-key': second.apiKey, 'x-api-secret': second.apiSecret }, app);
    expect(secondResponse.statusCode).toBe(200);
    expect(secondResponse.json()).toEqual(await expectedBody(merchant));

    // Unauthenticated calls are refused before the limiter: still 401, not 429.
    expectUnauthorized(await getMerchant({ 'x-api-key': merchant.apiKey }, app));
  });
});
