/**
 * The sandbox PSP (src/adapters/pix/sandbox.ts): identifiers in DOMAIN.md's formats, a BR Code
 * per charge that the independent pix-utils parser reads with exactly the charge's amount,
 * idempotency per txid / refundId / idempotency key, refunds capped at the received amount,
 * settlement reported once, and state that outlives the adapter instance.
 */
import fc from 'fast-check';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { createDynamicPix, hasError, parsePix } from 'pix-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  END_TO_END_ID_PATTERN,
  REFUND_ID_PATTERN,
  SANDBOX_ISPB,
  SANDBOX_TRANSACTION_ID_PATTERN,
  TXID_PATTERN,
  newEndToEndId,
  newRefundId,
  newSandboxTransactionId,
  newTxid,
} from '../../src/adapters/pix/identifiers.ts';
import { PixChargeConflictError } from '../../src/adapters/pix/port.ts';
import {
  createSandboxPixProvider,
  PixSandboxNotFoundError,
  PixSandboxRefusedError,
  type SandboxPixProvider,
} from '../../src/adapters/pix/sandbox.ts';
import { ConfigError, loadConfig } from '../../src/config.ts';
import type { DatabaseHandle } from '../../src/db/database.ts';
import { openTestDatabase } from '../helpers/database.ts';

const settings = loadConfig({}).pix;
const START = new Date('2026-11-22T15:04:05.678Z');

let handle: DatabaseHandle;
let now: Date;
const clock = { now: () => now };
let psp: SandboxPixProvider;

beforeAll(async () => {
  handle = await openTestDatabase();
  now = START;
  psp = createSandboxPixProvider({ db: handle.db, clock, settings });
});
afterAll(async () => {
  await handle?.close();
});

/** yyyyMMddHHmm in UTC, from the ISO text (an oracle independent of the implementation). */
const isoMinute = (date: Date) => date.toISOString().replace(/[-:T]/g, '').slice(0, 12);

/** Integer centavos 1..10^11 as "x.yy" text. */
const amountArb = fc
  .integer({ min: 1, max: 100_000_000_000 })
  .map((centavos) => `${Math.floor(centavos / 100)}.${String(centavos % 100).padStart(2, '0')}`);

async function paidCharge(amountBrl: string) {
  const txid = newTxid();
  await psp.createCharge({ txid, amountBrl, expiresInSeconds: 900 });
  return psp.simulateChargePayment(txid);
}

async function newPayout(amountBrl = '25.00') {
  return psp.sendPix({
    idempotencyKey: newTxid(),
    pixKey: 'fulano@example.com',
    pixKeyType: 'EMAIL',
    amountBrl,
    recipientName: 'Fulano de Tal',
    description: 'payout',
  });
}

describe('identifiers', () => {
  it('endToEndId: E + ISPB + yyyyMMddHHmm (UTC of the given instant) + 11 alphanumerics, 32 characters', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true }), (at) => {
        const id = newEndToEndId(at);
        expect(id).toHaveLength(32);
        expect(id).toMatch(END_TO_END_ID_PATTERN);
        expect(id).toMatch(/^[a-zA-Z0-9]{32}$/); // API Pix's own pattern
        expect(id.slice(1, 9)).toBe(SANDBOX_ISPB);
        expect(id.slice(9, 21)).toBe(isoMinute(at));
      }),
      { numRuns: 2000 },
    );
    expect(newEndToEndId(new Date('2026-01-02T03:04:59Z'), '0000000A').slice(0, 21)).toBe('E0000000A202601020304');
    expect(() => newEndToEndId(START, 'abc')).toThrow(RangeError);
  });

  it('txid: [a-zA-Z0-9]{26,35}, 32 by default, unique over many generations', () => {
    const ids = Array.from({ length: 5000 }, () => newTxid());
    for (const id of ids) expect(id).toMatch(/^[a-zA-Z0-9]{32}$/);
    expect(new Set(ids).size).toBe(ids.length);
    // Every one of the 62 characters turns up in 160,000 draws (a broken alphabet would not).
    expect(new Set(ids.join('')).size).toBe(62);
    fc.assert(
      fc.property(fc.integer({ min: 26, max: 35 }), (length) => {
        const id = newTxid(length);
        expect(id).toHaveLength(length);
        expect(id).toMatch(TXID_PATTERN);
      }),
    );
    expect(() => newTxid(25)).toThrow(RangeError);
    expect(() => newTxid(36)).toThrow(RangeError);
  });

  it('refund id: [a-zA-Z0-9]{1,35}; sandbox transaction id: SBX + 29 alphanumerics', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 35 }), (length) => {
        expect(newRefundId(length)).toMatch(new RegExp(`^[a-zA-Z0-9]{${length}}$`));
      }),
    );
    for (let i = 0; i < 2000; i++) {
      expect(newRefundId()).toMatch(REFUND_ID_PATTERN);
      const id = newSandboxTransactionId();
      expect(id).toMatch(/^SBX[a-zA-Z0-9]{29}$/);
      expect(id).toMatch(SANDBOX_TRANSACTION_ID_PATTERN);
    }
    expect(() => newRefundId(0)).toThrow(RangeError);
  });
});

describe('configuration the sandbox PSP reads', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config.pix.merchantName).toBe('CRYPTO BRL EXCHANGE');
    expect(config.pix.merchantCity).toBe('SAO PAULO');
    expect(config.pix.receivingKey).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(config.sandbox.tokenBrlRates).toEqual({ USDC: '5.40' });
  });

  it('reads and normalises the variables, and rejects bad ones', () => {
    const config = loadConfig({
      PIX_MERCHANT_NAME: 'Loja Ágil',
      PIX_MERCHANT_CITY: 'Brasília',
      PIX_RECEIVING_KEY: 'Pix@Example.com',
      SANDBOX_USDC_BRL_RATE: '5.1234',
    });
    expect(config.pix).toEqual({ merchantName: 'Loja Ágil', merchantCity: 'Brasília', receivingKey: 'pix@example.com' });
    expect(config.sandbox.tokenBrlRates).toEqual({ USDC: '5.1234' });
    expect(loadConfig({ PIX_RECEIVING_KEY: '529.982.247-25' }).pix.receivingKey).toBe('52998224725');

    let problems: string[] = [];
    try {
      loadConfig({ PIX_MERCHANT_NAME: '***', PIX_MERCHANT_CITY: '😀', PIX_RECEIVING_KEY: 'not a key', SANDBOX_USDC_BRL_RATE: '0' });
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems = error.problems;
    }
    for (const name of ['PIX_MERCHANT_NAME', 'PIX_MERCHANT_CITY', 'PIX_RECEIVING_KEY', 'SANDBOX_USDC_BRL_RATE']) {
      expect(problems.some((p) => p.startsWith(name)), name).toBe(true);
    }
  });
});

describe('createCharge', () => {
  it('answers a dynamic BR Code that pix-utils reads; its location serves the full txid and exactly the amount', async () => {
    await fc.assert(
      fc.asyncProperty(amountArb, fc.integer({ min: 26, max: 35 }), async (amountBrl, length) => {
        const txid = newTxid(length);
        const charge = await psp.createCharge({ txid, amountBrl, expiresInSeconds: 600 });
        expect(charge.txid).toBe(txid);
        expect(charge.amountBrl).toBe(amountBrl);
        expect(charge.expiresAt.getTime()).toBe(now.getTime() + 600_000);

        const code = parsePix(charge.pixCopiaECola);
        if (hasError(code)) throw new Error(`pix-utils: ${code.message}`);
        if (code.type !== 'DYNAMIC') throw new Error(`expected a dynamic code, got ${code.type}`);
        expect(charge.pixCopiaECola.startsWith('000201010212')).toBe(true); // 01 = 12: single use (pix-utils does not report it)
        expect(code.url).toMatch(/^pix-sandbox\.invalid\/qr\/v2\/[0-9a-f]{32}$/);
        expect(code.merchantName).toBe('CRYPTO BRL EXCHANGE');
        expect(code.merchantCity).toBe('SAO PAULO');
        // pix-utils' builder writes the same fields in the same order: equal bytes pin 01 = 12,
        // 26/25, 62/05 = *** and the CRC.
        const expected = createDynamicPix({ url: code.url, merchantName: 'CRYPTO BRL EXCHANGE', merchantCity: 'SAO PAULO', oneTime: true });
        if (hasError(expected)) throw new Error(`pix-utils: ${expected.message}`);
        expect(charge.pixCopiaECola).toBe(expected.toBRCode());

        // The round trip of the reference: code → location → payload → the same txid and amount.
        const served = await psp.payloadAt(code.url);
        expect(served?.payload).toMatchObject({ txid, status: 'ATIVA', valor: { original: amountBrl }, chave: settings.receivingKey, calendario: { expiracao: 600 } });
        expect(decodeJwt(served!.jws)).toEqual(served!.payload);
        expect(decodeProtectedHeader(served!.jws)).toMatchObject({ alg: 'ES256', typ: 'JWS' });
      }),
      { numRuns: 60 },
    );
  });

  it('writes name and city as uppercase ASCII within 25 and 15 characters', async () => {
    const other = createSandboxPixProvider({
      db: handle.db,
      clock,
      settings: { ...settings, merchantName: 'Câmbio de Criptomoedas do Brasil Ltda', merchantCity: 'São José dos Campos' },
    });
    const charge = await other.createCharge({ txid: newTxid(), amountBrl: '1.00', expiresInSeconds: 60 });
    const code = parsePix(charge.pixCopiaECola);
    if (hasError(code)) throw new Error(code.message);
    if (code.type !== 'DYNAMIC') throw new Error(`expected a dynamic code, got ${code.type}`);
    // pix-utils returns fields 59 and 60 exactly as written.
    expect(code.merchantName).toBe('CAMBIO DE CRIPTOMOEDAS DO');
    expect(code.merchantCity).toBe('SAO JOSE DOS CA');
  });

  it('serves nothing at an unknown location', async () => {
    expect(await psp.payloadAt('pix-sandbox.invalid/qr/v2/00000000000000000000000000000000')).toBeNull();
  });

  it('is idempotent per txid: the same amount answers the same charge, another amount is a PixChargeConflictError', async () => {
    const txid = newTxid();
    const first = await psp.createCharge({ txid, amountBrl: '10.50', expiresInSeconds: 900 });
    now = new Date(START.getTime() + 60_000);
    try {
      expect(await psp.createCharge({ txid, amountBrl: '10.50', expiresInSeconds: 300 })).toEqual(first);
      expect(await psp.createCharge({ txid, amountBrl: '10.5', expiresInSeconds: 900 })).toEqual(first);
      const concurrent = await Promise.all(Array.from({ length: 10 }, () => psp.createCharge({ txid, amountBrl: '10.50', expiresInSeconds: 1 })));
      for (const charge of concurrent) expect(charge).toEqual(first);
      await expect(psp.createCharge({ txid, amountBrl: '10.51', expiresInSeconds: 900 })).rejects.toThrow(PixChargeConflictError);
    } finally {
      now = START;
    }
  });

  it('names every charge by its whole txid: two txids sharing their first 25 characters are two charges', async () => {
    const prefix = newTxid(26).slice(0, 25);
    const a = await psp.createCharge({ txid: `${prefix}A`, amountBrl: '3.00', expiresInSeconds: 60 });
    const b = await psp.createCharge({ txid: `${prefix}B`, amountBrl: '4.00', expiresInSeconds: 60 });
    const txidAt = async (code: string) => {
      const parsed = parsePix(code);
      if (hasError(parsed) || parsed.type !== 'DYNAMIC') throw new Error('expected a dynamic code');
      return (await psp.payloadAt(parsed.url))?.payload.txid;
    };
    expect([await txidAt(a.pixCopiaECola), await txidAt(b.pixCopiaECola)]).toEqual([`${prefix}A`, `${prefix}B`]);
  });

  it('refuses malformed input', async () => {
    const base = { txid: newTxid(), amountBrl: '1.00', expiresInSeconds: 60 };
    for (const input of [
      { ...base, txid: newTxid().slice(0, 25) },
      { ...base, txid: `${newTxid(34)}-` },
      { ...base, amountBrl: '0.00' },
      { ...base, amountBrl: '1.001' },
      { ...base, amountBrl: '-1.00' },
      { ...base, amountBrl: '1e3' },
      { ...base, amountBrl: '12345678901.00' }, // 11 integer digits: more than API Pix's valor holds
      { ...base, expiresInSeconds: 0 },
    ]) {
      await expect(psp.createCharge(input), JSON.stringify(input)).rejects.toThrow(PixSandboxRefusedError);
    }
  });
});

describe('simulateChargePayment and getReceivedPix', () => {
  it('pays the charge once: a new endToEndId stamped with the clock, the same notification on every repeat', async () => {
    const txid = newTxid();
    await psp.createCharge({ txid, amountBrl: '99.90', expiresInSeconds: 900 });
    expect(await psp.getReceivedPix(newEndToEndId(now))).toBeNull();

    const paid = await psp.simulateChargePayment(txid);
    expect(paid).toEqual({ kind: 'charge_paid', txid, endToEndId: expect.any(String), amountBrl: '99.90', paidAt: START });
    expect(paid.endToEndId).toMatch(END_TO_END_ID_PATTERN);
    expect(paid.endToEndId.slice(9, 21)).toBe(isoMinute(START));

    now = new Date(START.getTime() + 3_600_000);
    try {
      const repeats = await Promise.all(Array.from({ length: 20 }, () => psp.simulateChargePayment(txid)));
      for (const repeat of repeats) expect(repeat).toEqual(paid);
    } finally {
      now = START;
    }
    expect(await psp.getReceivedPix(paid.endToEndId)).toEqual({ endToEndId: paid.endToEndId, txid, amountBrl: '99.90', paidAt: START });
  });

  it('gives one endToEndId to concurrent first payments', async () => {
    const txid = newTxid();
    await psp.createCharge({ txid, amountBrl: '5.00', expiresInSeconds: 900 });
    const payments = await Promise.all(Array.from({ length: 20 }, () => psp.simulateChargePayment(txid)));
    expect(new Set(payments.map((p) => p.endToEndId)).size).toBe(1);
  });

  it('can pay another amount than the charge (for the wrong-amount policy)', async () => {
    const txid = newTxid();
    await psp.createCharge({ txid, amountBrl: '50.00', expiresInSeconds: 900 });
    const paid = await psp.simulateChargePayment(txid, { amountBrl: '49.99' });
    expect(paid.amountBrl).toBe('49.99');
    expect((await psp.getReceivedPix(paid.endToEndId))?.amountBrl).toBe('49.99');
  });

  it('throws a typed not-found error for an unknown txid', async () => {
    const error = await psp.simulateChargePayment(newTxid()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PixSandboxNotFoundError);
    expect(error).toMatchObject({ code: 'NOT_FOUND', statusCode: 404 });
  });
});

describe('refund', () => {
  it('accepts refunds up to the received amount in total and refuses more', async () => {
    const paid = await paidCharge('10.00');
    const refund = (refundId: string, amountBrl: string) =>
      psp.refund({ endToEndId: paid.endToEndId, refundId, amountBrl, description: 'order failed' });

    await expect(refund(newRefundId(), '10.01')).rejects.toThrow(PixSandboxRefusedError);
    expect(await refund('r1', '6.00')).toEqual({ refundId: 'r1', status: 'EM_PROCESSAMENTO' });
    expect(await refund('r2', '4.00')).toEqual({ refundId: 'r2', status: 'EM_PROCESSAMENTO' });
    await expect(refund('r3', '0.01')).rejects.toThrow(/would total more than the 10.00 received/);
  });

  it('caps concurrent refunds of one PIX at the received amount', async () => {
    const paid = await paidCharge('10.00');
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, () => psp.refund({ endToEndId: paid.endToEndId, refundId: newRefundId(), amountBrl: '3.00', description: 'x' })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(PixSandboxRefusedError);
  });

  it('is idempotent per refundId and refuses the id for another amount or PIX', async () => {
    const paid = await paidCharge('20.00');
    const other = await paidCharge('20.00');
    const refundId = newRefundId();
    const input = { endToEndId: paid.endToEndId, refundId, amountBrl: '20.00', description: 'refund' };
    const first = await psp.refund(input);
    expect(await psp.refund(input)).toEqual(first);
    await expect(psp.refund({ ...input, amountBrl: '19.00' })).rejects.toThrow(PixSandboxRefusedError);
    await expect(psp.refund({ ...input, endToEndId: other.endToEndId })).rejects.toThrow(PixSandboxRefusedError);
  });

  it('refuses an unknown endToEndId, a malformed refund id and a refund after 90 days', async () => {
    await expect(psp.refund({ endToEndId: newEndToEndId(now), refundId: 'r', amountBrl: '1.00', description: 'x' })).rejects.toThrow(
      PixSandboxNotFoundError,
    );
    const paid = await paidCharge('1.00');
    await expect(psp.refund({ endToEndId: paid.endToEndId, refundId: 'bad-id', amountBrl: '1.00', description: 'x' })).rejects.toThrow(
      PixSandboxRefusedError,
    );
    now = new Date(START.getTime() + 91 * 86_400_000);
    try {
      await expect(psp.refund({ endToEndId: paid.endToEndId, refundId: 'late', amountBrl: '1.00', description: 'x' })).rejects.toThrow(
        /90 days/,
      );
    } finally {
      now = START;
    }
  });

  it('settles each refund once (DEVOLVIDO), fails one on demand (NAO_REALIZADO), and a failed one frees its amount', async () => {
    await psp.settleRefunds(); // earlier tests' refunds
    const paid = await paidCharge('10.00');
    const refund = (refundId: string, amountBrl: string) =>
      psp.refund({ endToEndId: paid.endToEndId, refundId, amountBrl, description: 'x' });
    const [a, b] = [newRefundId(), newRefundId()];
    await refund(a, '7.00');
    await refund(b, '3.00');

    expect(await psp.failRefund(b, 'account closed')).toEqual({
      kind: 'refund_settled',
      endToEndId: paid.endToEndId,
      refundId: b,
      status: 'NAO_REALIZADO',
      reason: 'account closed',
    });
    expect(await refund(b, '3.00')).toEqual({ refundId: b, status: 'NAO_REALIZADO' });
    await expect(psp.failRefund(b, 'again')).rejects.toThrow(PixSandboxRefusedError);
    await expect(psp.failRefund(newRefundId(), 'x')).rejects.toThrow(PixSandboxNotFoundError);

    const c = newRefundId();
    await refund(c, '3.00'); // b's 3.00 came back, so 7 + 3 fits again
    const settled = await psp.settleRefunds();
    expect(settled).toHaveLength(2);
    expect(settled).toEqual(
      expect.arrayContaining([
        { kind: 'refund_settled', endToEndId: paid.endToEndId, refundId: a, status: 'DEVOLVIDO' },
        { kind: 'refund_settled', endToEndId: paid.endToEndId, refundId: c, status: 'DEVOLVIDO' },
      ]),
    );
    expect(await psp.settleRefunds()).toEqual([]);
    expect(await refund(a, '7.00')).toEqual({ refundId: a, status: 'DEVOLVIDO' });
    await expect(psp.failRefund(a, 'too late')).rejects.toThrow(/already DEVOLVIDO/);
  });
});

describe('sendPix and payout settlement', () => {
  it('answers an SBX transaction id, idempotent per key; another body under the key is refused', async () => {
    const input = {
      idempotencyKey: `payout-${newTxid()}`,
      pixKey: '+5511998765432',
      pixKeyType: 'PHONE' as const,
      amountBrl: '150.00',
      recipientName: null,
      description: 'order payout',
    };
    const first = await psp.sendPix(input);
    expect(first.providerTransactionId).toMatch(SANDBOX_TRANSACTION_ID_PATTERN);
    expect(await psp.sendPix(input)).toEqual(first);
    const concurrent = await Promise.all(Array.from({ length: 10 }, () => psp.sendPix(input)));
    for (const answer of concurrent) expect(answer).toEqual(first);
    await expect(psp.sendPix({ ...input, amountBrl: '150.01' })).rejects.toThrow(PixSandboxRefusedError);
    await expect(psp.sendPix({ ...input, pixKey: '+5511998765433' })).rejects.toThrow(PixSandboxRefusedError);
    // A fresh key with a fresh body is a new transaction.
    const second = await psp.sendPix({ ...input, idempotencyKey: `payout-${newTxid()}` });
    expect(second.providerTransactionId).not.toBe(first.providerTransactionId);
  });

  it('refuses an invalid PIX key or amount', async () => {
    const base = { idempotencyKey: newTxid(), pixKeyType: 'CPF' as const, pixKey: '52998224725', amountBrl: '1.00', recipientName: null, description: 'x' };
    await expect(psp.sendPix({ ...base, pixKey: '52998224726' })).rejects.toThrow(PixSandboxRefusedError);
    await expect(psp.sendPix({ ...base, amountBrl: '0.001' })).rejects.toThrow(PixSandboxRefusedError);
    await expect(psp.sendPix({ ...base, idempotencyKey: '' })).rejects.toThrow(PixSandboxRefusedError);
  });

  it('settles every PROCESSING payout, each reported exactly once', async () => {
    await psp.settlePayouts(); // earlier tests' payouts
    const ids = await Promise.all(Array.from({ length: 12 }, () => newPayout()));
    const settleAt = new Date('2026-11-23T01:30:00Z');
    // Concurrent settlers split the payouts between them: none reported twice, none lost.
    const batches = await Promise.all(Array.from({ length: 4 }, () => psp.settlePayouts({ now: settleAt })));
    const reported = batches.flat();
    expect(reported.map((n) => n.providerTransactionId).sort()).toEqual(ids.map((i) => i.providerTransactionId).sort());
    for (const notification of reported) {
      if (notification.status !== 'CONFIRMED') throw new Error('expected CONFIRMED');
      expect(notification.kind).toBe('payout_settled');
      expect(notification.endToEndId).toMatch(END_TO_END_ID_PATTERN);
      expect(notification.endToEndId.slice(9, 21)).toBe('202611230130');
    }
    expect(new Set(reported.map((n) => (n.status === 'CONFIRMED' ? n.endToEndId : ''))).size).toBe(12);
    expect(await psp.settlePayouts()).toEqual([]);

    const late = await newPayout();
    expect((await psp.settlePayouts()).map((n) => n.providerTransactionId)).toEqual([late.providerTransactionId]);
    await expect(psp.failPayout(late.providerTransactionId, 'too late')).rejects.toThrow(/already CONFIRMED/);
  });

  it('fails a payout on demand; a failed payout is not settled', async () => {
    await psp.settlePayouts();
    const payout = await newPayout();
    expect(await psp.failPayout(payout.providerTransactionId, 'invalid account')).toEqual({
      kind: 'payout_settled',
      providerTransactionId: payout.providerTransactionId,
      status: 'FAILED',
      reason: 'invalid account',
    });
    expect(await psp.settlePayouts()).toEqual([]);
    await expect(psp.failPayout(payout.providerTransactionId, 'again')).rejects.toThrow(/already FAILED/);
    await expect(psp.failPayout(newSandboxTransactionId(), 'x')).rejects.toThrow(PixSandboxNotFoundError);
  });

  it('marks nothing when the caller’s transaction rolls back', async () => {
    await psp.settlePayouts();
    const payout = await newPayout();
    await expect(
      handle.db.transaction().execute(async (trx) => {
        expect(await psp.settlePayouts({ db: trx })).toHaveLength(1);
        throw new Error('handler failed');
      }),
    ).rejects.toThrow('handler failed');
    expect((await psp.settlePayouts()).map((n) => n.providerTransactionId)).toEqual([payout.providerTransactionId]);
  });
});

describe('failures armed ahead (armFailure)', () => {
  it('PAYOUT: the payout sent later under the armed idempotency key settles FAILED with the reason; others CONFIRMED; once', async () => {
    const key = `order-${newTxid()}`;
    await psp.armFailure('PAYOUT', key, 'first reason');
    await psp.armFailure('PAYOUT', key, 'key not found'); // re-arming replaces the reason
    const send = (idempotencyKey: string) =>
      psp.sendPix({ idempotencyKey, pixKey: 'fulano@example.com', pixKeyType: 'EMAIL', amountBrl: '5.00', recipientName: null, description: 'x' });
    const armed = await send(key);
    const other = await send(`order-${newTxid()}`);
    const settled = await psp.settlePayouts();
    expect(settled.find((n) => n.providerTransactionId === armed.providerTransactionId)).toEqual({
      kind: 'payout_settled',
      providerTransactionId: armed.providerTransactionId,
      status: 'FAILED',
      reason: 'key not found',
    });
    expect(settled.find((n) => n.providerTransactionId === other.providerTransactionId)).toMatchObject({ status: 'CONFIRMED' });
    expect(await psp.getPayout(armed.providerTransactionId)).toEqual({ status: 'FAILED', reason: 'key not found' });
    expect(await handle.db.selectFrom('sandbox_pix_armed_failures').selectAll().where('key', '=', key).execute()).toEqual([]);
  });

  it('REFUND: the refund of the PIX that paid the armed charge settles NAO_REALIZADO; other refunds DEVOLVIDO', async () => {
    const txid = newTxid();
    await psp.armFailure('REFUND', txid, 'payer account closed');
    await psp.createCharge({ txid, amountBrl: '7.00', expiresInSeconds: 900 });
    const paid = await psp.simulateChargePayment(txid);
    const other = await paidCharge('8.00');
    await psp.refund({ endToEndId: paid.endToEndId, refundId: 'armedRefund1', amountBrl: '7.00', description: 'x' });
    await psp.refund({ endToEndId: other.endToEndId, refundId: 'plainRefund1', amountBrl: '8.00', description: 'x' });
    const settled = await psp.settleRefunds();
    expect(settled.find((n) => n.refundId === 'armedRefund1')).toEqual({
      kind: 'refund_settled',
      endToEndId: paid.endToEndId,
      refundId: 'armedRefund1',
      status: 'NAO_REALIZADO',
      reason: 'payer account closed',
    });
    expect(settled.find((n) => n.refundId === 'plainRefund1')).toMatchObject({ status: 'DEVOLVIDO' });
    expect(await psp.getRefund(paid.endToEndId, 'armedRefund1')).toEqual({ status: 'NAO_REALIZADO', reason: 'payer account closed' });
  });
});

describe('persistence', () => {
  it('a new instance over the same database sees every charge, payment, refund and payout', async () => {
    const txid = newTxid();
    const charge = await psp.createCharge({ txid, amountBrl: '42.00', expiresInSeconds: 900 });
    const paid = await psp.simulateChargePayment(txid);
    await psp.refund({ endToEndId: paid.endToEndId, refundId: 'persisted', amountBrl: '40.00', description: 'x' });
    await psp.settlePayouts();
    const payoutInput = { idempotencyKey: newTxid(), pixKey: '11222333000181', pixKeyType: 'CNPJ' as const, amountBrl: '8.00', recipientName: 'ACME', description: 'x' };
    const payout = await psp.sendPix(payoutInput);

    const restarted = createSandboxPixProvider({ db: handle.db, clock, settings });
    expect(restarted).not.toBe(psp);
    expect(await restarted.createCharge({ txid, amountBrl: '42.00', expiresInSeconds: 1 })).toEqual(charge);
    expect(await restarted.simulateChargePayment(txid)).toEqual(paid);
    expect(await restarted.getReceivedPix(paid.endToEndId)).toMatchObject({ txid, amountBrl: '42.00' });
    await expect(restarted.refund({ endToEndId: paid.endToEndId, refundId: 'more', amountBrl: '2.01', description: 'x' })).rejects.toThrow(
      PixSandboxRefusedError,
    );
    expect(await restarted.sendPix(payoutInput)).toEqual(payout);
    expect((await restarted.settlePayouts()).map((n) => n.providerTransactionId)).toEqual([payout.providerTransactionId]);
  });
});
