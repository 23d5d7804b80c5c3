/**
 * The PSP's confirmation of a callback's notification (issue 24), over a fake PSP: what is applied
 * is the PSP's record, and any difference between the body and that record refuses it whole.
 */
import { describe, expect, it } from 'vitest';
import type { PayoutState, ReceivedPix, RefundState } from '../../../src/adapters/pix/port.ts';
import { type PixConfirmationLookups, confirmPixNotification } from '../../../src/modules/orders/psp/pix-confirmation.ts';

const E2E = 'E12345678202611251200abcdefghijk';
const TXID = 'a'.repeat(32);
const PAID_AT = new Date('2026-11-25T12:00:00Z');

function fakePsp(records: { pix?: ReceivedPix[]; cobPaidBy?: ReceivedPix; refund?: RefundState; payout?: PayoutState; down?: boolean } = {}): PixConfirmationLookups {
  const answer = <T>(value: T) => (records.down ? Promise.reject(new Error('connect ECONNREFUSED')) : Promise.resolve(value));
  return {
    getReceivedPix: (e2e) => answer(records.pix?.find((p) => p.endToEndId === e2e) ?? null),
    getChargePayment: (txid) => answer(records.cobPaidBy?.txid === txid ? records.cobPaidBy : null),
    getRefund: () => answer(records.refund ?? null),
    getPayout: () => answer(records.payout ?? null),
  };
}

const received = (overrides: Partial<ReceivedPix> = {}): ReceivedPix => ({ endToEndId: E2E, txid: TXID, amountBrl: '10.00', paidAt: PAID_AT, ...overrides });
const chargePaid = (overrides: { endToEndId?: string; txid?: string; amountBrl?: string } = {}) =>
  ({ kind: 'charge_paid', txid: TXID, endToEndId: E2E, amountBrl: '10.00', paidAt: new Date('2030-01-01T00:00:00Z'), ...overrides }) as const;

describe('confirmPixNotification: charge_paid', () => {
  it('is confirmed by GET /pix/{e2eid} and carries the PSP’s record (amount as 2 places, its time)', async () => {
    const result = await confirmPixNotification(fakePsp({ pix: [received({ amountBrl: '10' })] }), chargePaid());
    expect(result).toEqual({ confirmed: true, notification: { kind: 'charge_paid', txid: TXID, endToEndId: E2E, amountBrl: '10.00', paidAt: PAID_AT } });
  });

  it('never takes the body’s time: a record without a readable horario stays so (our clock then judges it, arrival-time.ts)', async () => {
    const result = await confirmPixNotification(fakePsp({ pix: [received({ paidAt: new Date(Number.NaN) })] }), chargePaid());
    expect(result.confirmed).toBe(true);
    const notification = result.confirmed && result.notification.kind === 'charge_paid' ? result.notification : undefined;
    expect(Number.isNaN(notification?.paidAt.getTime())).toBe(true);
  });

  it('is confirmed by the charge’s pix list (GET /cob/{txid}) when GET /pix does not know it yet', async () => {
    const result = await confirmPixNotification(fakePsp({ cobPaidBy: received() }), chargePaid());
    expect(result).toMatchObject({ confirmed: true, notification: { endToEndId: E2E, amountBrl: '10.00' } });
  });

  it('is refused for an endToEndId the PSP does not know, even when the charge was paid by another', async () => {
    const other = received({ endToEndId: 'E'.padEnd(32, 'z') });
    expect(await confirmPixNotification(fakePsp({ pix: [other], cobPaidBy: other }), chargePaid())).toEqual({ confirmed: false, reason: `the PSP knows no PIX ${E2E} paying charge ${TXID}` });
  });

  it('is refused when the PSP has that PIX for another txid, or none', async () => {
    const otherTxid = 'b'.repeat(32);
    expect(await confirmPixNotification(fakePsp({ pix: [received({ txid: otherTxid })] }), chargePaid())).toEqual({ confirmed: false, reason: `the PSP has PIX ${E2E} for txid ${otherTxid}, not ${TXID}` });
    expect(await confirmPixNotification(fakePsp({ pix: [received({ txid: null })] }), chargePaid())).toMatchObject({ confirmed: false, reason: expect.stringContaining('(none)') });
  });

  it('is refused when the amount differs from the PSP’s, either way', async () => {
    const psp = fakePsp({ pix: [received({ amountBrl: '5.00' })] });
    expect(await confirmPixNotification(psp, chargePaid({ amountBrl: '10.00' }))).toEqual({ confirmed: false, reason: `the PSP has PIX ${E2E} of 5.00 BRL, not 10.00` });
    expect(await confirmPixNotification(fakePsp({ pix: [received({ amountBrl: '10.01' })] }), chargePaid())).toMatchObject({ confirmed: false });
  });

  it('throws when the PSP cannot be asked (the callback answers 503)', async () => {
    await expect(confirmPixNotification(fakePsp({ down: true }), chargePaid())).rejects.toThrow('ECONNREFUSED');
  });
});

describe('confirmPixNotification: refund_settled', () => {
  const refund = (status: 'DEVOLVIDO' | 'NAO_REALIZADO') =>
    status === 'DEVOLVIDO'
      ? ({ kind: 'refund_settled', endToEndId: E2E, refundId: 'R1', status } as const)
      : ({ kind: 'refund_settled', endToEndId: E2E, refundId: 'R1', status, reason: 'from the body' } as const);

  it('is confirmed in the PSP’s final state, with the PSP’s reason', async () => {
    expect(await confirmPixNotification(fakePsp({ refund: { status: 'DEVOLVIDO' } }), refund('DEVOLVIDO'))).toEqual({ confirmed: true, notification: refund('DEVOLVIDO') });
    expect(await confirmPixNotification(fakePsp({ refund: { status: 'NAO_REALIZADO', reason: 'refused by the PSP' } }), refund('NAO_REALIZADO'))).toEqual({
      confirmed: true,
      notification: { ...refund('NAO_REALIZADO'), reason: 'refused by the PSP' },
    });
  });

  it('is refused when unknown, still processing, or in the other final state', async () => {
    expect(await confirmPixNotification(fakePsp(), refund('DEVOLVIDO'))).toEqual({ confirmed: false, reason: `the PSP knows no refund R1 of PIX ${E2E}` });
    expect(await confirmPixNotification(fakePsp({ refund: { status: 'EM_PROCESSAMENTO' } }), refund('DEVOLVIDO'))).toEqual({ confirmed: false, reason: 'the PSP has refund R1 EM_PROCESSAMENTO, not DEVOLVIDO' });
    expect(await confirmPixNotification(fakePsp({ refund: { status: 'NAO_REALIZADO', reason: 'x' } }), refund('DEVOLVIDO'))).toMatchObject({ confirmed: false });
    expect(await confirmPixNotification(fakePsp({ refund: { status: 'DEVOLVIDO' } }), refund('NAO_REALIZADO'))).toMatchObject({ confirmed: false });
  });
});

describe('confirmPixNotification: payout_settled', () => {
  const confirmedPayout = { kind: 'payout_settled', providerTransactionId: 'P1', status: 'CONFIRMED', endToEndId: E2E } as const;
  const failedPayout = { kind: 'payout_settled', providerTransactionId: 'P1', status: 'FAILED', reason: 'from the body' } as const;

  it('is confirmed in the PSP’s final state, with the PSP’s endToEndId or reason', async () => {
    expect(await confirmPixNotification(fakePsp({ payout: { status: 'CONFIRMED', endToEndId: E2E } }), confirmedPayout)).toEqual({ confirmed: true, notification: confirmedPayout });
    expect(await confirmPixNotification(fakePsp({ payout: { status: 'FAILED', reason: 'refused by the receiving institution' } }), failedPayout)).toEqual({
      confirmed: true,
      notification: { ...failedPayout, reason: 'refused by the receiving institution' },
    });
  });

  it('is refused when unknown, still processing, in the other final state, or settled as another PIX', async () => {
    expect(await confirmPixNotification(fakePsp(), confirmedPayout)).toEqual({ confirmed: false, reason: 'the PSP knows no payout P1' });
    expect(await confirmPixNotification(fakePsp({ payout: { status: 'PROCESSING' } }), confirmedPayout)).toEqual({ confirmed: false, reason: 'the PSP has payout P1 PROCESSING, not CONFIRMED' });
    expect(await confirmPixNotification(fakePsp({ payout: { status: 'PROCESSING' } }), failedPayout)).toMatchObject({ confirmed: false });
    expect(await confirmPixNotification(fakePsp({ payout: { status: 'FAILED', reason: 'x' } }), confirmedPayout)).toEqual({ confirmed: false, reason: 'the PSP has payout P1 FAILED, not CONFIRMED' });
    const other = 'E'.padEnd(32, 'y');
    expect(await confirmPixNotification(fakePsp({ payout: { status: 'CONFIRMED', endToEndId: other } }), confirmedPayout)).toEqual({ confirmed: false, reason: `the PSP has payout P1 settled as PIX ${other}, not ${E2E}` });
  });
});
