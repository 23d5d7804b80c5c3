/** Answer examples of payout batches: a two-line payroll batch, approved by a second person and paid. */
import type { ResponseExamples } from './table.ts';
import { OWNER_USER_ID, PAYOUT_ID, RECEIVER_ID } from './values.ts';

const BATCH_ID = '019ac1d2-5e6f-7a80-9b1c-2d3e4f5a6b7c';
const ADMIN_USER_ID = '019ac1d0-1a2b-7c3d-8e4f-5a6b7c8d9e0f';
const SECOND_ORDER_ID = '019ac1d3-6f70-7a81-8c2d-3e4f5a6b7c8d';

const BATCH = {
  id: BATCH_ID,
  status: 'VALIDATED',
  chain: 'solana',
  token: 'USDC',
  itemCount: 2,
  validCount: 2,
  invalidCount: 0,
  totalCrypto: '350.5',
  totalBrl: '1892.70',
  totalNetBrl: '1883.23',
  ratesExpireAt: '2026-11-24T16:00:00.000Z',
  approvalRequired: null,
  createdByUserId: OWNER_USER_ID,
  approvedByUserId: null,
  approvedAt: null,
  depositAddress: null,
  fundedCrypto: null,
  fundedAt: null,
  heldCrypto: '0',
  progress: { valid: 2, invalid: 0, ordered: 0, completed: 0, failed: 0, refused: 0, cancelled: 0 },
  createdAt: '2026-11-24T15:00:00.000Z',
  updatedAt: '2026-11-24T15:00:00.000Z',
};
const AWAITING_APPROVAL = { ...BATCH, status: 'AWAITING_APPROVAL', approvalRequired: true, updatedAt: '2026-11-24T15:02:00.000Z' };
const AWAITING_FUNDING = {
  ...AWAITING_APPROVAL,
  status: 'AWAITING_FUNDING',
  approvedByUserId: ADMIN_USER_ID,
  approvedAt: '2026-11-24T15:10:00.000Z',
  depositAddress: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU',
  updatedAt: '2026-11-24T15:10:00.000Z',
};
const PAID = {
  ...AWAITING_FUNDING,
  status: 'COMPLETED',
  fundedCrypto: '350.5',
  fundedAt: '2026-11-24T15:20:00.000Z',
  progress: { valid: 0, invalid: 0, ordered: 2, completed: 2, failed: 0, refused: 0, cancelled: 0 },
  updatedAt: '2026-11-24T15:20:01.000Z',
};
const ITEMS = [
  { line: 1, status: 'ORDERED', receiverId: RECEIVER_ID, externalId: 'payroll-2026-11-001', amountCrypto: '100', amountBrl: '540.00', netAmountBrl: '537.30', errors: null, orderId: PAYOUT_ID, orderStatus: 'COMPLETED', failureReason: null },
  { line: 2, status: 'ORDERED', receiverId: RECEIVER_ID, externalId: 'payroll-2026-11-002', amountCrypto: '250.5', amountBrl: '1352.70', netAmountBrl: '1345.93', errors: null, orderId: SECOND_ORDER_ID, orderStatus: 'COMPLETED', failureReason: null },
];

export const BATCH_RESPONSE_EXAMPLES: ResponseExamples = {
  createPayoutBatch: { 201: BATCH },
  listPayoutBatches: { 200: { data: [PAID], total: 1, page: 1, limit: 20 } },
  getPayoutBatch: { 200: PAID },
  listPayoutBatchItems: { 200: { data: ITEMS, total: 2, page: 1, limit: 20 } },
  exportPayoutBatchReport: {
    200: [
      'line,status,receiverId,externalId,amountCrypto,amountBrl,netAmountBrl,orderId,orderStatus,errors',
      `1,ORDERED,${RECEIVER_ID},payroll-2026-11-001,100,540.00,537.30,${PAYOUT_ID},COMPLETED,`,
      `2,ORDERED,${RECEIVER_ID},payroll-2026-11-002,250.5,1352.70,1345.93,${SECOND_ORDER_ID},COMPLETED,`,
      '',
    ].join('\r\n'),
  },
  submitPayoutBatch: { 200: AWAITING_APPROVAL },
  approvePayoutBatch: { 200: AWAITING_FUNDING },
  pausePayoutBatch: { 200: { ...AWAITING_FUNDING, status: 'PAUSED' } },
  resumePayoutBatch: { 200: AWAITING_FUNDING },
  cancelPayoutBatch: { 200: { ...AWAITING_FUNDING, status: 'CANCELLED', progress: { ...BATCH.progress, valid: 0, cancelled: 2 } } },
  getPayoutBatchSettings: { 200: { approvalThresholdBrl: '50000.00', updatedAt: '2026-11-20T12:00:00.000Z' } },
  setPayoutBatchSettings: { 200: { approvalThresholdBrl: '50000.00', updatedAt: '2026-11-24T14:00:00.000Z' } },
  sandboxFundPayoutBatch: { 200: PAID },
};
