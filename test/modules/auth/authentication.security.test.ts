/**
 * Merchant authentication on a merchant route (GET /merchant): every way a credential or token
 * can be wrong is 401 with one message that reveals nothing; revoked credentials and their
 * tokens are refused; and disabled merchants are 403.
 */
import { createPublicKey, generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { exportJWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, expectErrorBody, type TestContext, type TestMerchant } from '../../helpers/app.ts';
import { createMerchantPair, setMerchantStatus } from '../../helpers/factories.ts';
import { BAD_KEY_OR_SECRET, ISO_TIMESTAMP, authFixture, b64json, bearer, expectUnauthorized, now, parts } from './helpers.ts';

let ctx: TestContext;
let merchantA: TestMerchant;
let merchantB: TestMerchant;
const auth = authFixture(() => ctx);
const { kid, privateKey, getMerchant, requestToken, expectedBody, claimsFor, sign, issuedToken } = auth;

beforeAll(async () => {
  ctx = await createTestContext();
  await auth.init();
  [merchantA, merchantB] = await createMerchantPair(ctx);
});

afterAll(async () => {
  await ctx?.close();
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
    ['an alg:none token carrying the real kid', async () => bearer(`${b64json({ alg: 'none', kid: kid(), typ: 'JWT' })}.${b64json(claimsFor(merchantA))}.`)],
    ['an HS256 token signed with an arbitrary secret', async () => bearer(await sign(claimsFor(merchantA), { key: randomBytes(32), header: { alg: 'HS256' } }))],
    [
      'an HS256 token keyed with the public key PEM (algorithm confusion)',
      async () => {
        const pem = createPublicKey(privateKey()).export({ type: 'spki', format: 'pem' }).toString();
        return bearer(await sign(claimsFor(merchantA), { key: new TextEncoder().encode(pem), header: { alg: 'HS256' } }));
      },
    ],
    [
      'an HS256 token keyed with the raw public key bytes (the JWK x)',
      async () => {
        const jwk = await exportJWK(createPublicKey(privateKey()));
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

describe('disabled merchant', () => {
  it('is 403 FORBIDDEN by key+secret, by a token issued before, and on /auth/token; a wrong secret stays 401', async () => {
    const merchant = await ctx.createMerchant('Soon disabled');
    const token = await issuedToken(merchant);

    const disabled = await setMerchantStatus(ctx, merchant, 'DISABLED');
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
      const enabled = await setMerchantStatus(ctx, merchant, 'ACTIVE');
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
