/**
 * The pure refusal rules of order creation (src/modules/orders/creation/creation-rules.ts), as tables: the
 * receiver rules in the spec's order, and the early daily-limit check, which must agree with the
 * reservation's SQL comparison (a count or a BRL total may reach its limit, never pass it).
 */
import { describe, expect, it } from 'vitest';
import { overDailyLimits, receiverRefusal } from '../../../src/modules/orders/creation/creation-rules.ts';
import type { OrderReceiver } from '../../../src/modules/receivers/service.ts';

const NIGHT = { start: '20:00', end: '06:00' };
const NOON_SP = new Date('2026-11-23T15:00:00.000Z');
const NIGHT_SP = new Date('2026-11-24T01:30:00.000Z'); // 22:30 in São Paulo

const receiver = (overrides: Partial<OrderReceiver> = {}, limits: Partial<OrderReceiver['limits']> = {}): OrderReceiver => ({
  id: 'r',
  name: 'Joana Souza',
  document: '52998224725',
  documentType: 'CPF',
  walletAddress: null,
  status: 'ACTIVE',
  kycStatus: 'APPROVED',
  ...overrides,
  limits: { dailyLimitBrl: null, dailyTransactionLimit: null, nightTransactionsEnabled: false, ...limits },
});

describe('receiver rules', () => {
  it.each([
    ['an approved, active receiver at noon', receiver(), NOON_SP, null],
    ['KYC pending', receiver({ kycStatus: 'PENDING', status: 'PENDING' }), NOON_SP, 'KYC_NOT_APPROVED'],
    ['KYC rejected, even if active', receiver({ kycStatus: 'REJECTED' }), NOON_SP, 'KYC_NOT_APPROVED'],
    ['approved but suspended', receiver({ status: 'SUSPENDED' }), NOON_SP, 'RECEIVER_NOT_ACTIVE'],
    ['approved but blocked, at night', receiver({ status: 'BLOCKED' }), NIGHT_SP, 'RECEIVER_NOT_ACTIVE'],
    ['night without night transactions', receiver(), NIGHT_SP, 'NIGHT_TRANSACTIONS_DISABLED'],
    ['night with night transactions', receiver({}, { nightTransactionsEnabled: true }), NIGHT_SP, null],
  ] as const)('%s → %s', (_case, subject, at, code) => {
    expect(receiverRefusal(subject, at, NIGHT)?.code ?? null).toBe(code);
  });
});

describe('daily limits checked before the provider call', () => {
  it.each([
    ['no limits', { dailyLimitBrl: null, dailyTransactionLimit: null }, { orderCount: 1000, amountBrl: '1000000.00' }, '10.00', false],
    ['the count reaches its limit', { dailyLimitBrl: null, dailyTransactionLimit: 5 }, { orderCount: 4, amountBrl: '40.00' }, '10.00', false],
    ['the count would pass it', { dailyLimitBrl: null, dailyTransactionLimit: 5 }, { orderCount: 5, amountBrl: '50.00' }, '10.00', true],
    ['the total reaches its limit', { dailyLimitBrl: '600.00', dailyTransactionLimit: null }, { orderCount: 1, amountBrl: '540.00' }, '60.00', false],
    ['the total would pass it by a centavo', { dailyLimitBrl: '600.00', dailyTransactionLimit: null }, { orderCount: 1, amountBrl: '540.00' }, '60.01', true],
    ['one order above the limit on an empty day', { dailyLimitBrl: '15.50', dailyTransactionLimit: 3 }, { orderCount: 0, amountBrl: '0' }, '15.51', true],
  ] as const)('%s', (_case, limits, usage, amountBrl, refused) => {
    const refusal = overDailyLimits({ ...limits, nightTransactionsEnabled: false }, usage, amountBrl);
    expect(refusal?.code ?? null).toBe(refused ? 'LIMIT_EXCEEDED' : null);
  });

  it('LIMIT_EXCEEDED shows the limits as JSON numbers', () => {
    expect(overDailyLimits({ dailyLimitBrl: '15.50', dailyTransactionLimit: 3, nightTransactionsEnabled: false }, { orderCount: 3, amountBrl: '1.00' }, '1.00')?.details).toEqual({
      dailyLimitBrl: 15.5,
      dailyTransactionLimit: 3,
    });
  });
});
