import { describe, expect, it } from 'vitest';
import { expectErrorBody } from '../../helpers/app.ts';
import { merchantA, merchantB, requestToken, useAuthContext } from './helpers.ts';

describe('auth: token errors', () => {
  useAuthContext();

  describe('POST /auth/token', () => {
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
});
