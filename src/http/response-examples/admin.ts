/**
 * Answer examples of the back office (/admin): operators, merchants as operators see them, KYC
 * review, audit and registers, fees and settlements, the treasury, orders and approvals. The
 * merchant, receiver, orders and claim are values.ts's and trading.ts's.
 */
import { CREDENTIAL, ISSUED_CREDENTIAL, TOTP_ENROLMENT } from './account.ts';
import { type ResponseExamples, perMediaType } from './table.ts';
import { DECIDED_DISPUTE, DISPUTE, SETTLEMENT, TIMELINE } from './trading.ts';
import {
  APPROVAL_ID,
  MERCHANT,
  MERCHANT_ID,
  MERCHANT_NAME,
  OPERATOR_ID,
  OWNER_USER_ID,
  PAYIN_COMPLETED,
  PAYIN_END_TO_END_ID,
  PAYIN_TRANSFER_SIGNATURE,
  PAYIN_TXID,
  RECEIVER,
  RECEIVER_ID,
  RECONCILIATION_ID,
  REQUEST_ID,
  SECOND_OPERATOR_ID,
  SUBMITTED_RECEIVER,
  TREASURY_ADDRESS,
  TREASURY_FUNDING_ID,
  WEBHOOK_ENDPOINT_ID,
} from './values.ts';

const OPERATOR = { id: OPERATOR_ID, email: 'rita.ops@example.com', role: 'OPERATIONS', totpEnabled: true, disabled: false, createdAt: '2026-02-20T09:14:55.306Z' };
const ADMIN_OPERATOR = { id: SECOND_OPERATOR_ID, email: 'carlos.admin@example.com', role: 'ADMIN', totpEnabled: true, disabled: false, createdAt: '2026-02-18T11:02:37.918Z' };
const OPERATIONS_PERMISSIONS = ['read', 'orders.operate', 'reports.export'];
const OPERATOR_CSRF = 'Pz8wK3nR6xTq1LcV9bJ4sHd7FgA2eYu5oKiM0wNtXrE';

const SERVICE_ACCOUNT = {
  id: '019a3f10-6c2e-7b85-a9d4-1e7f3c5b8a26',
  name: 'nightly-settlements',
  role: 'FINANCE',
  status: 'PENDING',
  createdBy: `operator:${SECOND_OPERATOR_ID}`,
  createdAt: '2026-11-10T20:41:03.452Z',
  activatedAt: null,
  approvalId: '019a3f10-6c31-7e02-b5a8-3d9f1c7e4b60',
  revokedAt: null,
};

const POLICIES = {
  merchantId: MERCHANT_ID,
  destinationPolicy: 'RECEIVER_ONLY',
  payerPolicy: 'FIRST_PARTY',
  walletOwnershipPolicy: 'LIMITED',
  unprovenWalletLimitBrl: 500,
  updatedAt: '2026-11-12T14:30:18.227Z',
};

const KYC_SUBMISSION = {
  id: '0195f3c3-5a1e-7c84-9b2d-7e0f3a6c1d45',
  submittedAt: RECEIVER.kycSubmittedAt,
  birthDate: '1988-04-12',
  incorporationDate: null,
  motherName: 'Ana da Silva',
  documents: [
    { type: 'ID_FRONT', reference: 'kyc/52998224725/id-front.jpg' },
    { type: 'SELFIE', reference: 'kyc/52998224725/selfie.jpg' },
  ],
  previousRejectionReason: null,
};

const auditEntry = (id: string, action: string, targetType: string, targetId: string | null, details: Record<string, unknown>, createdAt: string) => ({
  id,
  actor: `operator:${OPERATOR_ID}`,
  action,
  targetType,
  targetId,
  details,
  requestId: REQUEST_ID,
  createdAt,
  merchantId: MERCHANT_ID,
});

const REFUND_TARGET = '01932c4e-8a1b-7c3d-9e4f-5a6b7c8d9e0f';
const PROPOSED_AT = '2026-11-22T12:08:44.730Z';
const PROPOSE_AUDIT = auditEntry('019ab8a2-5d41-7a08-9e6c-3b1f7d2a5c94', 'approval.propose', 'approval', APPROVAL_ID, { action: 'ORDER_REFUND', targetId: REFUND_TARGET }, PROPOSED_AT);
/** A PAYIN whose automatic PIX refund failed (the payer's account closed): money held, waiting for an operator. */
const FAILED_ORDER = {
  id: REFUND_TARGET,
  merchantId: MERCHANT_ID,
  merchantName: MERCHANT_NAME,
  receiverId: RECEIVER_ID,
  type: 'PAYIN',
  status: 'FAILED',
  amountBrl: 820,
  token: 'USDC',
  chain: 'solana',
  externalId: 'invoice-2026-0031',
  failureReason: 'PIX refund refused by the PSP: payer account closed',
  createdAt: '2026-11-21T17:22:09.614Z',
  updatedAt: '2026-11-21T17:25:40.082Z',
  allowedActions: ['REFUND'],
  moneyHeld: true,
};

const ADMIN_PAYIN = {
  id: PAYIN_COMPLETED.id,
  merchantId: MERCHANT_ID,
  merchantName: MERCHANT_NAME,
  receiverId: RECEIVER_ID,
  type: 'PAYIN',
  status: 'COMPLETED',
  amountBrl: PAYIN_COMPLETED.amountBrl,
  token: 'USDC',
  chain: 'solana',
  externalId: PAYIN_COMPLETED.externalId,
  failureReason: null,
  createdAt: PAYIN_COMPLETED.createdAt,
  updatedAt: PAYIN_COMPLETED.updatedAt,
  allowedActions: [],
  moneyHeld: false,
};

const proposer = { id: OPERATOR_ID, email: OPERATOR.email };
const APPROVAL = {
  id: APPROVAL_ID,
  action: 'ORDER_REFUND',
  targetType: 'order',
  targetId: REFUND_TARGET,
  merchantId: MERCHANT_ID,
  params: {},
  reason: 'Refund failed at the PSP (account closed); the customer gave a new account',
  status: 'PENDING',
  proposedBy: proposer,
  proposedAt: PROPOSED_AT,
  decidedBy: null,
  decidedAt: null,
  decisionReason: null,
  result: null,
};
const decided = (status: string, decisionReason: string | null, result: Record<string, unknown> | null) => ({
  ...APPROVAL,
  status,
  decidedBy: { id: SECOND_OPERATOR_ID, email: ADMIN_OPERATOR.email },
  decidedAt: '2026-11-22T12:31:05.194Z',
  decisionReason,
  result,
});

const TREASURY_RECONCILIATION = {
  id: RECONCILIATION_ID,
  startedAt: '2026-11-24T14:00:00.012Z',
  finishedAt: '2026-11-24T14:00:01.347Z',
  inFlightTransfers: 0,
  driftFound: false,
  currencies: [{ wallet: 1, currency: 'USDC', onChain: '248713.418220', ledger: '248713.418220', drift: '0.000000', inFlightAmount: '0.000000' }],
};

const FUNDING = {
  id: TREASURY_FUNDING_ID,
  reference: '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW',
  wallet: 1,
  currency: 'USDC',
  amount: '250000.000000',
  note: 'Opening balance, transfer from the cold wallet',
  createdAt: '2026-02-20T10:05:31.640Z',
};

const REGISTER_ROW = {
  id: '019ab6f3-9e12-7f60-8b4d-2c6e8a0f1d35',
  occurredAt: '2026-11-24T14:05:41.093Z',
  orderId: PAYIN_COMPLETED.id,
  orderType: 'PAYIN',
  merchantId: MERCHANT_ID,
  movement: 'PIX_IN',
  direction: 'IN',
  asset: 'BRL',
  chain: null,
  quantity: '1500.00',
  valueBrl: '1500.00',
  clientDocumentType: 'CPF',
  clientDocument: '52998224725',
  clientName: RECEIVER.name,
  walletAddress: null,
  walletSelfHosted: null,
  counterpartyType: 'PIX_PAYER',
  originatorName: RECEIVER.name,
  originatorDocumentType: 'CPF',
  originatorDocument: '52998224725',
  originatorAccount: '18236120/0001/123456-7',
  beneficiaryName: MERCHANT_NAME,
  beneficiaryDocumentType: 'CNPJ',
  beneficiaryDocument: '11222333000181',
  beneficiaryAccount: null,
  pixEndToEndId: PAYIN_END_TO_END_ID,
  pspReference: PAYIN_TXID,
  txSignature: null,
};
const csvLine = (values: unknown[]) => values.map((value) => (value === null ? '' : String(value))).join(',');

const adminDispute = (dispute: Record<string, unknown>) => ({ ...dispute, merchantId: MERCHANT_ID, pspInfractionId: 'INF-2026-11-0004417' });

export const ADMIN_RESPONSE_EXAMPLES: ResponseExamples = {
  adminSignIn: { 201: { operator: OPERATOR, csrfToken: OPERATOR_CSRF, totpEnrolmentRequired: false, permissions: OPERATIONS_PERMISSIONS } },
  adminAcceptOperatorInvitation: { 201: { ...OPERATOR, totpEnabled: false } },
  adminGetCurrentSession: { 200: { operator: OPERATOR, csrfToken: OPERATOR_CSRF, totpEnrolmentRequired: false, permissions: OPERATIONS_PERMISSIONS } },
  adminStartTotpEnrolment: { 201: { ...TOTP_ENROLMENT, otpauthUri: TOTP_ENROLMENT.otpauthUri.replace('ana.souza%40example.com', 'rita.ops%40example.com') } },
  adminListOperators: { 200: [ADMIN_OPERATOR, OPERATOR] },
  adminCreateOperator: {
    202: {
      id: '0195f2a0-6e1d-7a40-8c5b-2d9f4a7e1c03',
      email: OPERATOR.email,
      role: 'OPERATIONS',
      invitedBy: `operator:${SECOND_OPERATOR_ID}`,
      approvalId: '0195f2a0-6e22-7f18-a3c6-8b1d5e9f2a74',
      createdAt: '2026-02-19T16:40:22.105Z',
      expiresAt: '2026-02-26T16:40:22.105Z',
    },
  },
  adminUpdateOperator: { 200: { ...OPERATOR, role: 'VIEWER' } },
  adminListServiceAccounts: { 200: [{ ...SERVICE_ACCOUNT, status: 'ACTIVE', activatedAt: '2026-11-10T21:03:47.661Z' }] },
  adminCreateServiceAccount: { 201: { serviceAccount: SERVICE_ACCOUNT, token: 'svc_Hq4Tn8Wm2Rk6Xp0Lc3Vb7Js1Df5Ga9Ey2Uo6Ki4Mw8Nr' } },
  adminRevokeServiceAccount: { 200: { ...SERVICE_ACCOUNT, status: 'REVOKED', activatedAt: '2026-11-10T21:03:47.661Z', revokedAt: '2026-11-23T08:15:02.390Z' } },
  adminCreateMerchant: { 201: { merchant: MERCHANT, credential: { ...ISSUED_CREDENTIAL, label: null, expiresAt: null, allowedIps: null, scopes: null, createdAt: MERCHANT.createdAt } } },
  adminListMerchants: { 200: { data: [MERCHANT], total: 1, page: 1, limit: 20 } },
  adminGetMerchant: { 200: MERCHANT },
  adminDisableMerchant: { 200: { ...MERCHANT, status: 'DISABLED' } },
  adminEnableMerchant: { 200: MERCHANT },
  adminListCredentials: { 200: [CREDENTIAL] },
  adminCreateCredential: { 201: { ...ISSUED_CREDENTIAL, label: 'issued by support', expiresAt: null, allowedIps: null, scopes: ['read'] } },
  adminRevokeCredential: { 200: { ...CREDENTIAL, revokedAt: '2026-11-24T18:12:09.663Z' } },
  adminGetMerchantPolicies: { 200: POLICIES },
  adminSetMerchantPolicies: { 200: POLICIES },
  adminGetDestinationPolicy: { 200: POLICIES },
  adminSetDestinationPolicy: { 200: { ...POLICIES, destinationPolicy: 'ANY', updatedAt: '2026-11-24T17:02:45.119Z' } },
  adminListMerchantUsers: {
    200: [{ id: OWNER_USER_ID, merchantId: MERCHANT_ID, email: 'ana.souza@example.com', role: 'OWNER', totpEnabled: true, createdAt: MERCHANT.createdAt }],
  },
  adminListMerchantFeeTiers: {
    200: [{ id: '0195f3ba-0d4c-7e21-9b6a-3f8c1e5d7a02', orderType: 'PAYIN', minVolumeBrl: 0, maxVolumeBrl: 100000, platformFeePercentage: 0.005, merchantFeePercentage: 0.01, totalFeePercentage: 0.015 }],
  },
  adminListKycQueue: {
    200: { data: [{ receiver: SUBMITTED_RECEIVER, merchantId: MERCHANT_ID, merchantName: MERCHANT_NAME, kycSubmittedAt: RECEIVER.kycSubmittedAt, waitingSeconds: 5400 }], nextCursor: null },
  },
  adminGetReceiverKyc: {
    200: {
      receiver: { ...SUBMITTED_RECEIVER, kycStatus: 'UNDER_REVIEW' },
      merchantName: MERCHANT_NAME,
      waitingSeconds: 5400,
      submissions: [KYC_SUBMISSION],
      history: [auditEntry('0195f3c3-a2e4-7d16-8b9c-1f3e5a7c9d20', 'receiver.kyc_start_review', 'receiver', RECEIVER_ID, {}, '2026-03-18T14:55:09.544Z')],
    },
  },
  adminGetReceiver: { 200: RECEIVER },
  adminStartKycReview: { 200: { ...SUBMITTED_RECEIVER, kycStatus: 'UNDER_REVIEW', updatedAt: '2026-03-18T14:55:09.544Z' } },
  adminApproveKyc: { 200: RECEIVER },
  adminRejectKyc: {
    200: { ...SUBMITTED_RECEIVER, kycStatus: 'REJECTED', kycRejectionReason: 'The selfie does not match the ID photo', kycReviewedAt: RECEIVER.kycReviewedAt, updatedAt: RECEIVER.kycReviewedAt },
  },
  adminSuspendReceiver: { 200: { ...RECEIVER, status: 'SUSPENDED', updatedAt: '2026-11-25T09:12:40.318Z' } },
  adminBlockReceiver: { 200: { ...RECEIVER, status: 'BLOCKED', updatedAt: '2026-11-25T09:12:40.318Z' } },
  adminReactivateReceiver: { 200: { ...RECEIVER, updatedAt: '2026-11-26T10:47:03.771Z' } },
  adminListAuditLog: {
    200: { data: [PROPOSE_AUDIT], nextCursor: null },
  },
  adminExportAuditLog: {
    200: [
      'id,createdAt,actor,action,targetType,targetId,merchantId,requestId,details',
      csvLine([PROPOSE_AUDIT.id, APPROVAL.proposedAt, `operator:${OPERATOR_ID}`, 'approval.propose', 'approval', APPROVAL_ID, MERCHANT_ID, REQUEST_ID, `"${JSON.stringify(PROPOSE_AUDIT.details).replaceAll('"', '""')}"`]),
      '',
    ].join('\r\n'),
  },
  adminExportOperationsRegister: {
    200: perMediaType({
      'text/csv': [csvLine(Object.keys(REGISTER_ROW)), csvLine(Object.values(REGISTER_ROW)), ''].join('\r\n'),
      'application/x-ndjson': `${JSON.stringify(REGISTER_ROW)}\n`,
    }),
  },
  adminListPlatformFeeTiers: {
    200: [
      { id: '0195f2b1-3a7c-7e52-8d0f-6b4e1c9a2d71', orderType: 'PAYIN', minVolumeBrl: 0, maxVolumeBrl: 500000, platformFeePercentage: 0.005 },
      { id: '0195f2b1-3a7c-7e52-8d0f-6b4e1c9a2d72', orderType: 'PAYIN', minVolumeBrl: 500000, maxVolumeBrl: null, platformFeePercentage: 0.004 },
    ],
  },
  adminReplacePlatformFeeTiers: {
    200: {
      success: true,
      tiers: [
        { id: '019ab90c-4d1e-7a63-b8f2-0c5e7a9d3b14', minVolumeBrl: 0, maxVolumeBrl: 500000, platformFeePercentage: 0.015 },
        { id: '019ab90c-4d1e-7a63-b8f2-0c5e7a9d3b15', minVolumeBrl: 500000, maxVolumeBrl: null, platformFeePercentage: 0.01 },
      ],
    },
  },
  adminListSettlementsDue: {
    200: {
      asOf: '2026-11-24T18:00:00.000Z',
      merchants: 1,
      totalBrl: '4925.20',
      data: [{ merchantId: MERCHANT_ID, merchantName: MERCHANT_NAME, amountBrl: '4925.20', markupBrl: '612.40', chargebacksOwedBrl: '0.00', entries: 187, oldestEntryAt: '2026-11-01T03:12:44.201Z' }],
    },
  },
  adminRunSettlements: { 200: { settlements: [SETTLEMENT] } },
  adminGetTreasury: {
    200: {
      chain: 'solana-rpc',
      onChain: true,
      address: TREASURY_ADDRESS,
      onChainSource: 'node',
      onChainAsOf: '2026-11-24T14:06:00.118Z',
      currencies: [
        {
          currency: 'USDC',
          onChain: '248440.413786',
          ledger: '248440.413786',
          drift: '0.000000',
          lowBalanceThreshold: '50000.000000',
          belowThreshold: false,
          openPayinObligations: '273.004434',
          openPayins: 1,
          inFlightTransfers: 0,
          inFlightAmount: '0.000000',
        },
      ],
      wallets: [
        {
          wallet: 1,
          address: TREASURY_ADDRESS,
          currencies: [{ currency: 'USDC', onChain: '248440.413786', ledger: '248440.413786', drift: '0.000000', belowThreshold: false, inFlightTransfers: 0, inFlightAmount: '0.000000' }],
        },
      ],
      lastReconciliation: TREASURY_RECONCILIATION,
      lookupTables: { tables: 2, addresses: 311, rentHeld: '0.695356800', extensionInFlight: false },
    },
  },
  adminListTreasuryReconciliations: { 200: { data: [TREASURY_RECONCILIATION] } },
  adminCreateTreasuryFunding: { 200: FUNDING, 201: FUNDING },
  adminSearchOrders: { 200: { data: [ADMIN_PAYIN, FAILED_ORDER], nextCursor: null } },
  adminListStuckOrders: { 200: { data: [{ ...FAILED_ORDER, stuckReason: 'FAILED_WITH_MONEY_HELD', stuckForSeconds: 246300 }], olderThanMinutes: 30, nextCursor: null } },
  adminGetOrder: {
    200: {
      ...ADMIN_PAYIN,
      paymentReference: PAYIN_TXID,
      pixEndToEndId: PAYIN_END_TO_END_ID,
      providerTransactionId: 'sbx_tx_8f2c6a1e9d4b',
      refundId: null,
      txHash: PAYIN_TRANSFER_SIGNATURE,
      treasuryWallet: 1,
      payer: { documentType: 'CPF', document: '52998224725', name: RECEIVER.name },
      platformFeeAmountBrl: PAYIN_COMPLETED.platformFeeAmountBrl,
      merchantFeeAmountBrl: PAYIN_COMPLETED.merchantFeeAmountBrl,
      markup: PAYIN_COMPLETED.markup,
      netAmountBrl: PAYIN_COMPLETED.netAmountBrl,
      stepAttempts: 1,
      nextStepAt: null,
      timeline: TIMELINE.entries,
    },
  },
  adminListPspReconciliationRuns: {
    200: {
      data: [
        { id: '019ab6f0-0000-7a1b-9c2d-3e4f5a6b7c8d', startedAt: '2026-11-24T14:00:00.021Z', finishedAt: '2026-11-24T14:00:02.884Z', chargesApplied: 0, refundsApplied: 0, payoutsApplied: 1, drift: 0, error: null },
      ],
    },
  },
  adminListApprovals: { 200: { data: [APPROVAL], nextCursor: null } },
  adminProposeAction: { 201: APPROVAL },
  adminGetApproval: { 200: APPROVAL },
  adminApproveProposal: { 200: decided('APPROVED', 'New account checked with the customer by phone', { refundId: 'D18236120202611221231Kp4Wz7Qm2Vx' }) },
  adminRejectProposal: { 200: decided('REJECTED', 'The new account is not in the payer’s name', null) },
  adminRetryOrderStep: { 200: { ...FAILED_ORDER, status: 'REFUNDING', failureReason: null, updatedAt: '2026-11-22T12:31:05.194Z', allowedActions: [], moneyHeld: true } },
  adminMarkOrderFailed: { 200: { ...ADMIN_PAYIN, id: '019ab5c1-2f7d-7b30-8e6a-4c1d9f3b7e52', status: 'FAILED', failureReason: 'PSP confirmed the charge was never paid', allowedActions: [], amountBrl: 320 } },
  adminGetWebhooksHealth: {
    200: {
      windowHours: 24,
      data: [
        {
          merchantId: MERCHANT_ID,
          merchantName: MERCHANT_NAME,
          endpointId: WEBHOOK_ENDPOINT_ID,
          url: 'https://merchant.example.com/webhooks/exchange',
          status: 'ENABLED',
          disabledReason: null,
          failingSince: null,
          deliveries: { total: 412, succeeded: 409, failed: 1, pending: 2 },
          successRate: 0.9976,
          lastSuccessAt: '2026-11-24T14:05:56.377Z',
          lastFailureAt: '2026-11-24T03:17:45.012Z',
          lastFailureStatusCode: 502,
          lastFailureError: null,
          pendingRetries: 2,
        },
      ],
    },
  },
  adminListDisputes: { 200: { data: [adminDispute(DISPUTE)], total: 1, page: 1, limit: 20 } },
  adminGetDispute: { 200: adminDispute(DECIDED_DISPUTE) },
};
