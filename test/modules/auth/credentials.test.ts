import { describe, expect, it } from 'vitest';
import { ISO_TIMESTAMP, JWT_SHAPE, ctx, merchantA, merchantB, getMerchant, requestToken, bearer, expectedBody, claimsFor, sign, issuedToken, useAuthContext } from './helpers.ts';

describe('auth: credentials', () => {
  useAuthContext();

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
});
