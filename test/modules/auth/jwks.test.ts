/**
 * GET /.well-known/jwks.json: public, cacheable, and the one Ed25519 key that verifies the
 * tokens POST /auth/token issues, with exactly the claims the issuer sets.
 */
import { createPublicKey } from 'node:crypto';
import { createLocalJWKSet, decodeProtectedHeader, exportJWK, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestMerchant } from '../../helpers/app.ts';
import { createMerchant } from '../../helpers/factories.ts';
import { JWKS_URL, authFixture, now } from './helpers.ts';

let ctx: TestContext;
let merchantA: TestMerchant;
const auth = authFixture(() => ctx);
const { privateKey, issuedToken } = auth;

beforeAll(async () => {
  ctx = await createTestContext();
  await auth.init();
  merchantA = await createMerchant(ctx, 'Merchant A');
});

afterAll(async () => {
  await ctx?.close();
});

describe('GET /.well-known/jwks.json', () => {
  it('needs no credentials and publishes the one Ed25519 key that verifies issued tokens', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: JWKS_URL });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=300');
    const jwks = response.json() as { keys: Array<Record<string, unknown>> };

    const publicJwk = await exportJWK(createPublicKey(privateKey()));
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
