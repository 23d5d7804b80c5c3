/**
 * PUT /cob/{txid} repeated for the same txid (an order created with an Idempotency-Key, retried
 * after a crash or raced by a duplicate): a PSP that refuses the repeat ("txid already used")
 * instead of answering the charge is asked for it, and the existing charge is the answer when it
 * is for the same amount; another amount is PixChargeConflictError (orders answer 409, not 503).
 */
import { describe, expect, it } from 'vitest';
import { PixProviderError, type PspHttpClient } from '../../src/adapters/pix/api-pix/http-client.ts';
import { createApiPixProvider } from '../../src/adapters/pix/api-pix/provider.ts';
import type { ApiPixAdapterSettings } from '../../src/adapters/pix/api-pix/settings.ts';
import { PixChargeConflictError } from '../../src/adapters/pix/port.ts';

const TXID = 'k0123456789abcdef0123456789abcdef0';
const settings = { baseUrl: 'https://psp.example/v2', payoutBaseUrl: 'https://psp.example', receivingKey: 'key@example.com' } as ApiPixAdapterSettings;
const cob = (valor: string) => ({ txid: TXID, valor: { original: valor }, pixCopiaECola: 'code', calendario: { criacao: '2026-11-26T00:00:00Z', expiracao: 900 } });

/** A PSP whose PUT of an existing txid answers `refusal`, and whose GET answers the charge for `existingAmount`. */
function pspRefusingRepeats(refusal: number, existingAmount: string) {
  const calls: string[] = [];
  const client = {
    async call(method: string, url: string) {
      calls.push(`${method} ${url.replace(settings.baseUrl, '')}`);
      if (method === 'PUT') throw new PixProviderError(`PUT /cob: PSP refused the request (${refusal})`, { status: refusal, retryable: false });
      return { status: 200, body: cob(existingAmount) };
    },
    close() {},
  } as unknown as PspHttpClient;
  return { provider: createApiPixProvider(settings, client), calls };
}

describe('API Pix createCharge repeated for one txid', () => {
  for (const refusal of [400, 409]) {
    it(`a ${refusal} "txid already used" finds the existing charge of the same amount`, async () => {
      const { provider, calls } = pspRefusingRepeats(refusal, '64.00');
      const charge = await provider.createCharge({ txid: TXID, amountBrl: '64.00', expiresInSeconds: 900 });
      expect(charge).toMatchObject({ txid: TXID, amountBrl: '64.00', pixCopiaECola: 'code' });
      expect(calls).toEqual([`PUT /cob/${TXID}`, `GET /cob/${TXID}`]);
    });
  }

  for (const refusal of [400, 409]) {
    it(`a ${refusal} for a txid whose charge has another amount is PixChargeConflictError, keeping the PSP's refusal as cause`, async () => {
      const { provider, calls } = pspRefusingRepeats(refusal, '65.00');
      const failure = await provider.createCharge({ txid: TXID, amountBrl: '64.00', expiresInSeconds: 900 }).catch((err: unknown) => err);
      expect(failure).toBeInstanceOf(PixChargeConflictError);
      expect((failure as Error).cause).toBeInstanceOf(PixProviderError);
      expect(calls).toEqual([`PUT /cob/${TXID}`, `GET /cob/${TXID}`]);
    });
  }

  it('a PSP answering the repeat with the existing charge of another amount is PixChargeConflictError too', async () => {
    const client = { call: async () => ({ status: 201, body: cob('65.00') }), close() {} } as unknown as PspHttpClient;
    await expect(createApiPixProvider(settings, client).createCharge({ txid: TXID, amountBrl: '64.00', expiresInSeconds: 900 })).rejects.toBeInstanceOf(PixChargeConflictError);
  });

  it('a refusal for a txid the PSP does not show stands as the PSP error (503 to clients)', async () => {
    const client = {
      async call(method: string) {
        if (method === 'PUT') throw new PixProviderError('PUT /cob: PSP refused the request (400)', { status: 400, retryable: false });
        return { status: 404, body: { title: 'Not found' } };
      },
      close() {},
    } as unknown as PspHttpClient;
    const failure = await createApiPixProvider(settings, client).createCharge({ txid: TXID, amountBrl: '64.00', expiresInSeconds: 900 }).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(PixProviderError);
    expect(failure).not.toBeInstanceOf(PixChargeConflictError);
  });
});
