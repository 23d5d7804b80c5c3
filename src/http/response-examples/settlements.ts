/**
 * Answer examples of settlements' PIX payments (docs/decisions/0044): the merchant's settlement
 * key, an operator's request for one (the SETTLEMENT_PIX_KEY proposal it makes), a merchant's keys
 * and the back office's settlements with their payment.
 */
import type { ResponseExamples } from './table.ts';
import { APPROVAL_ID, MERCHANT_ID, MERCHANT_NAME, OPERATOR_ID } from './values.ts';
import { SETTLEMENT } from './trading.ts';

const KEY_ID = '019ad0e1-3c4d-7e5f-8a6b-7c8d9e0f1a2b';
const KEY = {
  id: KEY_ID,
  merchantId: MERCHANT_ID,
  pixKeyType: 'CNPJ',
  pixKey: '11222333000181',
  holderDocument: '**.222.333/****-**',
  status: 'ACTIVE',
  requestedAt: '2026-11-20T13:02:11.530Z',
  activatedAt: '2026-11-20T15:40:02.118Z',
  approvalId: APPROVAL_ID,
};

export const SETTLEMENT_RESPONSE_EXAMPLES: ResponseExamples = {
  getSettlementPixKey: { 200: { settlementPixKey: KEY } },
  adminListSettlementPixKeys: { 200: { data: [{ ...KEY, pixKey: '**.222.333/****-**' }] } },
  adminRequestSettlementPixKey: {
    201: {
      id: APPROVAL_ID,
      action: 'SETTLEMENT_PIX_KEY',
      targetType: 'settlement_pix_key',
      targetId: KEY_ID,
      merchantId: MERCHANT_ID,
      params: {},
      reason: 'Merchant letter of 2026-11-20, ticket 4411',
      status: 'PENDING',
      proposedBy: { id: OPERATOR_ID, email: 'rita.ops@example.com' },
      proposedAt: '2026-11-20T13:02:11.530Z',
      decidedBy: null,
      decidedAt: null,
      decisionReason: null,
      result: null,
    },
  },
  adminListSettlements: {
    200: {
      data: [{ ...SETTLEMENT, merchantName: MERCHANT_NAME, providerTransactionId: 'S019ad0e01a2b7c3d8e4f5a6b7c8d9e01', payoutAttempt: 0 }],
      pagination: { page: 1, limit: 20, total: 1 },
      unpaid: { count: 0, amountBrl: '0.00' },
    },
  },
};
