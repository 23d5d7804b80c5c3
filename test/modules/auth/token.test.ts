/**
 * Bearer tokens, happy paths: POST /auth/token answers a token that authenticates on merchant
 * routes, under the scheme name in any case; a token signed exactly as the issuer signs is
 * accepted (the control for the forgeries of authentication.security).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestMerchant } from '../../helpers/app.ts';
import { createMerchant } from '../../helpers/factories.ts';
import { JWT_SHAPE, authFixture, bearer } from './helpers.ts';

let ctx: TestContext;
let merchantA: TestMerchant;
const auth = authFixture(() => ctx);
const { getMerchant, requestToken, expectedBody, claimsFor, sign, issuedToken } = auth;

beforeAll(async () => {
  ctx = await createTestContext();
  await auth.init();
  merchantA = await createMerchant(ctx, 'Merchant A');
});

afterAll(async () => {
  await ctx?.close();
});

describe('bearer tokens on GET /merchant', () => {
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
});
