/**
 * Answer examples of the merchant's trading operations: receivers, quotes, orders, the ledger,
 * the overview and MED claims (disputes). The story and its figures are values.ts's.
 */
import type { ResponseExamples } from './table.ts';
import {
  DISPUTE_ID,
  ENTRY_IDS,
  MERCHANT_ID,
  NEW_RECEIVER,
  PAYIN_COMPLETED,
  PAYIN_END_TO_END_ID,
  PAYIN_ID,
  PAYIN_ORDER,
  PAYIN_PIX_IN,
  PAYIN_CHAIN_TRANSFER,
  PAYOUT_ID,
  PAYOUT_ORDER,
  QUOTE_ID,
  RECEIVER,
  RECEIVER_ID,
  RECEIVER_WALLET,
  SELF_HOSTED_WALLET,
  SETTLEMENT_ID,
  SIWS_SIGNATURE,
  CHALLENGE_ID,
  SUBMITTED_RECEIVER,
  WEBHOOK_DELIVERY_ID,
  WEBHOOK_ENDPOINT_ID,
} from './values.ts';

const RECEIVER_LIMITS = {
  receiverId: RECEIVER_ID,
  dailyLimitBrl: 50000,
  dailyTransactionLimit: 20,
  nightTransactionsEnabled: false,
  usageDay: '2026-11-24',
  ordersToday: 2,
  usedTodayBrl: 2847.5,
};

const SIWS_MESSAGE = [
  'app.exchange.example.com wants you to sign in with your Solana account:',
  SELF_HOSTED_WALLET,
  '',
  `I own this Solana wallet and accept it as the wallet of receiver ${RECEIVER_ID}.`,
  '',
  'URI: https://app.exchange.example.com',
  'Version: 1',
  'Nonce: k3Jd9QxPz2Lm7Wv4',
  'Issued At: 2026-11-24T13:40:05.217Z',
  'Expiration Time: 2026-11-24T13:50:05.217Z',
  `Request ID: ${CHALLENGE_ID}`,
].join('\n');

const QUOTE = {
  id: QUOTE_ID,
  type: 'PAYIN',
  chain: 'solana',
  token: 'USDC',
  receiverId: RECEIVER_ID,
  exchangeRate: PAYIN_ORDER.exchangeRate,
  amountBrl: PAYIN_ORDER.amountBrl,
  amountCrypto: PAYIN_ORDER.amountCrypto,
  feePercentage: 0.015,
  platformFeePercentage: 0.005,
  merchantFeePercentage: 0.01,
  platformFeeAmountBrl: 7.5,
  merchantFeeAmountBrl: 15,
  netAmountBrl: 1477.5,
  markup: null,
  expiresAt: '2026-11-24T14:03:28.120Z',
  createdAt: '2026-11-24T14:02:58.120Z',
};

const posting = (account: string, currency: string, amount: string) => ({ account, owner: account.startsWith('merchant_') ? 'merchant' : 'platform', currency, amount });

const PIX_RECEIVED_ENTRY = {
  id: ENTRY_IDS.payinPixReceived,
  kind: 'PAYIN_PIX_RECEIVED',
  referenceType: 'order',
  referenceId: PAYIN_ID,
  createdAt: PAYIN_PIX_IN.createdAt,
  settled: false,
  settlementId: null,
  postings: [posting('pix_cash', 'BRL', '1500.00'), posting('customer_funds_in_transit', 'BRL', '-1500.00')],
};

const COMPLETED_ENTRY = {
  id: ENTRY_IDS.payinCompleted,
  kind: 'PAYIN_COMPLETED',
  referenceType: 'order',
  referenceId: PAYIN_ID,
  createdAt: PAYIN_COMPLETED.completedAt,
  settled: true,
  settlementId: SETTLEMENT_ID,
  postings: [
    posting('customer_funds_in_transit', 'BRL', '1500.00'),
    posting('platform_fee_revenue', 'BRL', '-7.50'),
    posting('merchant_fees_payable', 'BRL', '-15.00'),
    posting('fx_conversion', 'BRL', '-1477.50'),
    posting('fx_conversion', 'USDC', '273.004434'),
    posting('token_treasury', 'USDC', '-273.004434'),
  ],
};

/** What a merchant is shown of an entry (docs/decisions/0041): its own accounts' legs only. */
const ownLegs = <E extends { postings: Array<{ owner: string }> }>(entry: E) => ({ ...entry, postings: entry.postings.filter((p) => p.owner === 'merchant') });

const SETTLEMENT = {
  id: SETTLEMENT_ID,
  merchantId: MERCHANT_ID,
  periodStart: '2026-11-01T03:00:00.000Z',
  periodEnd: '2026-12-01T03:00:00.000Z',
  createdAt: '2026-12-01T03:00:04.512Z',
  amountBrl: 4312.8,
  markupBrl: 612.4,
  entriesCount: 187,
  payoutStatus: 'PAID',
  pixEndToEndId: 'E1234567820261201030112345678901',
  paidAt: '2026-12-01T03:00:09.870Z',
  payoutFailureReason: null,
};

const stage = (type: string, name: string, statuses: string[], count: number, amountBrl: string, tokens: Array<{ token: string; amount: string }>) => ({ type, stage: name, statuses, count, amountBrl, tokens });
const BALANCES = {
  merchantId: MERCHANT_ID,
  asOf: '2026-12-01T14:20:00.000Z',
  unsettledFeesBrl: '15.00',
  unsettledMarkupBrl: '4.50',
  chargebacksOwedBrl: '150.00',
  settlements: { count: 1, totalBrl: '4312.80', unpaidBrl: '0.00', lastAt: SETTLEMENT.createdAt, latest: SETTLEMENT },
  excessDepositsHeld: [{ token: 'USDC', amount: '12.5', orders: 1 }],
  inFlight: [
    stage('PAYIN', 'AWAITING_PIX', ['AWAITING_PAYMENT'], 1, '1500.00', [{ token: 'USDC', amount: '273.004434' }]),
    stage('PAYIN', 'PIX_RECEIVED', ['PAYMENT_RECEIVED', 'SWAPPING', 'TRANSFERRING'], 0, '0.00', []),
    stage('PAYIN', 'PIX_BEING_RETURNED', ['REFUNDING'], 0, '0.00', []),
    stage('PAYOUT', 'AWAITING_DEPOSIT', ['AWAITING_DEPOSIT'], 1, '1347.50', [{ token: 'USDC', amount: '250' }]),
    stage('PAYOUT', 'DEPOSIT_RECEIVED', ['DEPOSIT_RECEIVED', 'PIX_SENDING', 'PIX_SENT_UNCONFIRMED'], 0, '0.00', []),
  ],
};

const none = { status: null, dispute: null, transaction: null, ledgerEntry: null, webhookDelivery: null };
const TIMELINE = {
  orderId: PAYIN_ID,
  type: 'PAYIN',
  status: 'COMPLETED',
  entries: [
    { ...none, at: PAYIN_ORDER.createdAt, kind: 'STATUS', status: { status: 'AWAITING_PAYMENT', source: 'CREATED', event: null } },
    { ...none, at: PAYIN_PIX_IN.createdAt, kind: 'TRANSACTION', transaction: { ...PAYIN_PIX_IN, explorerUrl: null } },
    { ...none, at: PAYIN_PIX_IN.createdAt, kind: 'STATUS', status: { status: 'PAYMENT_RECEIVED', source: 'EVENT', event: 'order.payment_received' } },
    { ...none, at: PAYIN_PIX_IN.createdAt, kind: 'LEDGER_ENTRY', ledgerEntry: PIX_RECEIVED_ENTRY },
    {
      ...none,
      at: PAYIN_CHAIN_TRANSFER.createdAt,
      kind: 'TRANSACTION',
      transaction: { ...PAYIN_CHAIN_TRANSFER, explorerUrl: `https://explorer.solana.com/tx/${PAYIN_CHAIN_TRANSFER.txHash}` },
    },
    { ...none, at: PAYIN_COMPLETED.completedAt, kind: 'STATUS', status: { status: 'COMPLETED', source: 'EVENT', event: 'order.completed' } },
    { ...none, at: PAYIN_COMPLETED.completedAt, kind: 'LEDGER_ENTRY', ledgerEntry: COMPLETED_ENTRY },
    {
      ...none,
      at: '2026-11-24T14:05:56.204Z',
      kind: 'WEBHOOK_DELIVERY',
      webhookDelivery: { id: WEBHOOK_DELIVERY_ID, endpointId: WEBHOOK_ENDPOINT_ID, event: 'order.completed', status: 'SUCCEEDED', attempts: 1, lastStatusCode: 200, lastAttemptAt: '2026-11-24T14:05:56.377Z' },
    },
    // The claim below (DISPUTE), opened after the tokens left: the order stays COMPLETED.
    {
      ...none,
      at: '2026-11-26T10:12:34.215Z',
      kind: 'DISPUTE',
      dispute: { disputeId: DISPUTE_ID, event: 'order.disputed', status: 'OPEN', outcome: null, defenseDeadline: '2026-11-29T10:12:33.908Z' },
    },
  ],
};

/** A MED claim against the PAYIN: the payer says it was a scam; the order's tokens were already sent. */
const DISPUTE = {
  id: DISPUTE_ID,
  orderId: PAYIN_ID,
  externalId: 'invoice-2026-0042',
  status: 'OPEN',
  reason: 'Golpe: o pagador não reconhece a transação',
  amountBrl: 1500,
  pixEndToEndId: PAYIN_END_TO_END_ID,
  reportedAt: '2026-11-26T10:12:33.908Z',
  defenseDeadline: '2026-11-29T10:12:33.908Z',
  orderHeld: false,
  defense: null,
  outcome: null,
  returnStatus: null,
  resolvedAt: null,
  createdAt: '2026-11-26T10:12:34.215Z',
  updatedAt: '2026-11-26T10:12:34.215Z',
};
const DEFENDED_DISPUTE = {
  ...DISPUTE,
  status: 'DEFENDED',
  defense: {
    justification: 'The payer is the receiver: KYC-verified, paying from their own account, and the tokens reached their own wallet',
    evidence: [{ description: 'Signed delivery receipt', url: 'https://files.example.com/receipts/8812.pdf', sha256: 'a3f1c9d27e4b5a6c8d0e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e' }],
    submittedAt: '2026-11-27T09:44:18.061Z',
  },
  updatedAt: '2026-11-27T09:44:18.061Z',
};
/** A receiver's standing PIX charge of a fixed R$ 150.00 (issue 43): its static BR Code on the platform's key. */
const STANDING_CHARGE = {
  id: '019ab9d0-3f1c-7a52-8e6b-2d4f9c1a7e35',
  receiverId: RECEIVER_ID,
  status: 'ACTIVE',
  txid: 'Kq3ZbV9tW2xYc7LmN4pRs8TuA',
  amountBrl: 150,
  chain: 'solana',
  token: 'USDC',
  destinationWallet: RECEIVER_WALLET,
  description: 'Mensalidade',
  pixCopiaECola: '00020126420014br.gov.bcb.pix0120pix@exchange.example5204000053039865406150.005802BR5919CRYPTO BRL EXCHANGE6009SAO PAULO62290525Kq3ZbV9tW2xYc7LmN4pRs8TuA6304DE48',
  createdAt: '2026-11-24T14:20:11.902Z',
  disabledAt: null,
};

export const DECIDED_DISPUTE = {
  ...DEFENDED_DISPUTE,
  status: 'ACCEPTED',
  outcome: 'CHARGED_BACK',
  returnStatus: 'RETURNED',
  resolvedAt: '2026-12-02T14:20:51.736Z',
  updatedAt: '2026-12-02T14:20:51.736Z',
};
export { DISPUTE };

const OVERVIEW = {
  days: 30,
  from: '2026-10-26',
  to: '2026-11-24',
  timeZone: 'America/Sao_Paulo',
  volumes: [
    { day: '2026-11-23', type: 'PAYIN', count: 41, amountBrl: '58230.00', completedCount: 39, completedAmountBrl: '55480.00' },
    { day: '2026-11-24', type: 'PAYIN', count: 12, amountBrl: '17650.00', completedCount: 11, completedAmountBrl: '16150.00' },
    { day: '2026-11-24', type: 'PAYOUT', count: 3, amountBrl: '4032.18', completedCount: 2, completedAmountBrl: '2684.68' },
  ],
  ordersByStatus: [
    { status: 'AWAITING_DEPOSIT', count: 1 },
    { status: 'AWAITING_PAYMENT', count: 1 },
    { status: 'COMPLETED', count: 1284 },
    { status: 'EXPIRED', count: 37 },
    { status: 'FAILED', count: 2 },
  ],
  fees: { balance: '4312.80', chargebacksOwed: '0.00', currency: 'BRL', unsettledEntries: 187, unsettledAmountBrl: '4312.80' },
  attention: {
    failedOrders: { count: 1, latestIds: ['019ab2d0-6f1c-7a48-b3e9-0d5c7a2f4e81'] },
    webhookEndpoints: [],
  },
};

const page = (data: unknown[]) => ({ data, total: data.length, page: 1, limit: 20 });

export const TRADING_RESPONSE_EXAMPLES: ResponseExamples = {
  createReceiver: { 201: NEW_RECEIVER },
  listReceivers: { 200: page([RECEIVER]) },
  getReceiver: { 200: RECEIVER },
  updateReceiver: { 200: { ...RECEIVER, email: 'maria.silva@example.org', phone: '+5511912345678', updatedAt: '2026-11-20T18:31:07.645Z' } },
  getReceiverLimits: { 200: RECEIVER_LIMITS },
  replaceReceiverLimits: { 200: { ...RECEIVER_LIMITS, dailyLimitBrl: 100000, dailyTransactionLimit: null, nightTransactionsEnabled: true } },
  submitReceiverKyc: { 200: { receiverId: RECEIVER_ID, kycStatus: 'SUBMITTED', kycSubmittedAt: RECEIVER.kycSubmittedAt, previousRejectionReason: null } },
  sandboxDecideKyc: { 200: { ...RECEIVER, kycReviewedAt: '2026-03-18T13:26:02.381Z', updatedAt: '2026-03-18T13:26:02.381Z' } },
  createWalletOwnershipChallenge: {
    201: { challengeId: CHALLENGE_ID, receiverId: RECEIVER_ID, walletAddress: SELF_HOSTED_WALLET, message: SIWS_MESSAGE, expiresAt: '2026-11-24T13:50:05.217Z' },
  },
  proveWalletOwnership: {
    201: {
      id: '0195f3c6-4f1b-7d92-a8e3-6c0b2d4f7a19',
      receiverId: RECEIVER_ID,
      walletAddress: SELF_HOSTED_WALLET,
      method: 'SIWS_ED25519',
      challengeId: CHALLENGE_ID,
      message: SIWS_MESSAGE,
      signature: SIWS_SIGNATURE,
      provenAt: '2026-11-24T13:41:22.930Z',
    },
  },
  listProvenWallets: {
    200: {
      data: [
        { walletAddress: RECEIVER.walletAddress, method: 'MANAGED', provenAt: RECEIVER.createdAt, proofId: null },
        { walletAddress: SELF_HOSTED_WALLET, method: 'SIWS_ED25519', provenAt: '2026-11-24T13:41:22.930Z', proofId: '0195f3c6-4f1b-7d92-a8e3-6c0b2d4f7a19' },
      ],
    },
  },
  createQuote: { 201: QUOTE },
  createPayin: { 201: PAYIN_ORDER },
  createPayout: { 201: PAYOUT_ORDER },
  getOrder: { 200: PAYIN_COMPLETED },
  listOrders: { 200: { data: [PAYOUT_ORDER, PAYIN_COMPLETED], total: 1325, page: 1, limit: 20, hasMore: true } },
  exportOrders: {
    200: [
      'id,externalId,type,status,receiverId,chain,token,amountBrl,amountToken,exchangeRate,netAmountBrl,platformFeeBrl,merchantFeeBrl,createdAt,completedAt,failureReason,markupBrl',
      `${PAYOUT_ID},withdrawal-2026-0107,PAYOUT,AWAITING_DEPOSIT,${RECEIVER_ID},solana,USDC,1347.5,250,5.39,1327.28,6.74,13.48,${PAYOUT_ORDER.createdAt},,,0`,
      `${PAYIN_ID},invoice-2026-0042,PAYIN,COMPLETED,${RECEIVER_ID},solana,USDC,1500,273.004434,5.412,1477.5,7.5,15,${PAYIN_ORDER.createdAt},${PAYIN_COMPLETED.completedAt},,0`,
      '',
    ].join('\r\n'),
  },
  getOrderTimeline: {
    200: {
      ...TIMELINE,
      // The merchant's view: a PIX received posts to no merchant account, the completion shows its fee leg.
      entries: TIMELINE.entries
        .filter((entry) => entry.ledgerEntry !== PIX_RECEIVED_ENTRY)
        .map((entry) => (entry.ledgerEntry ? { ...entry, ledgerEntry: ownLegs(entry.ledgerEntry) } : entry)),
    },
  },
  getOverview: { 200: OVERVIEW },
  getFeeBalance: { 200: { merchantId: MERCHANT_ID, balance: '4312.80', chargebacksOwed: '150.00', markupBalance: '612.40', currency: 'BRL' } },
  listSettlements: { 200: { settlements: [SETTLEMENT], pagination: { page: 1, pageSize: 20, total: 1, totalPages: 1 } } },
  listLedgerEntries: { 200: { entries: [ownLegs(COMPLETED_ENTRY)], pagination: { page: 1, pageSize: 20, total: 1, totalPages: 1 } } },
  getBalances: { 200: BALANCES },
  listDisputes: { 200: page([DISPUTE]) },
  getDispute: { 200: DISPUTE },
  submitDisputeDefense: { 200: DEFENDED_DISPUTE },
  listFeeTiers: {
    200: [
      { id: '0195f3ba-0d4c-7e21-9b6a-3f8c1e5d7a02', orderType: 'PAYIN', minVolumeBrl: 0, maxVolumeBrl: 100000, platformFeePercentage: 0.005, merchantFeePercentage: 0.01, totalFeePercentage: 0.015 },
      { id: '0195f3ba-0d4c-7e21-9b6a-3f8c1e5d7a03', orderType: 'PAYIN', minVolumeBrl: 100000, maxVolumeBrl: null, platformFeePercentage: 0.004, merchantFeePercentage: 0.005, totalFeePercentage: 0.009 },
      { id: '0195f3ba-0d4c-7e21-9b6a-3f8c1e5d7a04', orderType: 'PAYOUT', minVolumeBrl: 0, maxVolumeBrl: null, platformFeePercentage: 0.005, merchantFeePercentage: 0.01, totalFeePercentage: 0.015 },
    ],
  },
  listMarkups: {
    200: [
      { orderType: 'PAYIN', bps: 50, flatBrl: 1.5, capBrl: 25, updatedAt: '2026-11-20T13:05:41.220Z' },
      { orderType: 'PAYOUT', bps: 0, flatBrl: 0, capBrl: null, updatedAt: null },
    ],
  },
  createStandingPixCharge: { 201: STANDING_CHARGE },
  listStandingPixCharges: { 200: { data: [STANDING_CHARGE] } },
  getStandingPixCharge: { 200: STANDING_CHARGE },
  disableStandingPixCharge: { 200: { ...STANDING_CHARGE, status: 'DISABLED', disabledAt: '2026-11-30T18:22:07.514Z' } },
  setMarkup: { 200: { orderType: 'PAYIN', bps: 50, flatBrl: 1.5, capBrl: 25, updatedAt: '2026-11-24T14:10:02.318Z' } },
  replaceFeeTiers: {
    200: {
      success: true,
      tiers: [
        { id: '019ab7a0-5e2f-7c41-8d3b-9a6e0f2c4b17', minVolumeBrl: 0, maxVolumeBrl: 100000, platformFeePercentage: 0.005, merchantFeePercentage: 0.01, totalFeePercentage: 0.015 },
        { id: '019ab7a0-5e2f-7c41-8d3b-9a6e0f2c4b18', minVolumeBrl: 100000, maxVolumeBrl: null, platformFeePercentage: 0.004, merchantFeePercentage: 0.005, totalFeePercentage: 0.009 },
      ],
    },
  },
};

export { PIX_RECEIVED_ENTRY, COMPLETED_ENTRY, SETTLEMENT, TIMELINE, QUOTE, SUBMITTED_RECEIVER };
