import { randomBytes } from 'node:crypto';
import { describe, it } from 'vitest';
import { BAD_KEY_OR_SECRET, merchantA, merchantB, requestToken, expectUnauthorized, useAuthContext } from './helpers.ts';

describe('auth: token security', () => {
  useAuthContext();

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
  });
});
