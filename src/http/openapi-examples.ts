/**
 * One example request body per operation that takes one, by operationId (openapi-operations.ts).
 * The document shows it beside the body's schema; `npm run lint:openapi` checks that each one
 * is valid against that schema (Redocly's no-invalid-media-type-examples), and
 * test/http/openapi.test.ts that every body has one. Ids are examples, not live records, shared
 * with the answers' examples (response-examples/values.ts) so that both tell one story.
 */
import { CHALLENGE_ID, MERCHANT_ID, QUOTE_ID, RECEIVER_ID, SELF_HOSTED_WALLET, SIWS_SIGNATURE } from './response-examples/values.ts';

/** A base64 wire transaction: what @solana/kit's getBase64EncodedWireTransaction returns (shortened here). */
const WIRE_TRANSACTION =
  'AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAABAAIEBmH8tN2P1Z9yS0T1VNmV+oUQX2sZrUd0xq4vG7Y1m6I=';

export const REQUEST_EXAMPLES: Readonly<Record<string, unknown>> = {
  createAccessToken: { apiKey: 'mk_3f9a1c2e7b4d', apiSecret: 'sk_live_5d2c8e1f9a7b3c6d0e4f8a2b1c9d7e3f' },
  signIn: { email: 'ana.souza@example.com', password: 'correct horse battery staple', totp: '492039' },
  adminSignIn: { email: 'rita.ops@example.com', password: 'correct horse battery staple', totp: '492039' },
  adminConfirmTotpEnrolment: { code: '492039' },
  adminCreateOperator: { email: 'rita.ops@example.com', role: 'OPERATIONS' },
  adminUpdateOperator: { role: 'VIEWER' },
  adminAcceptOperatorInvitation: { password: 'correct horse battery staple' },
  adminCreateServiceAccount: { name: 'nightly-settlements', role: 'FINANCE' },
  adminProposeAction: { action: 'ORDER_REFUND', targetId: '01932c4e-8a1b-7c3d-9e4f-5a6b7c8d9e0f', reason: 'Refund failed at the PSP (account closed); the customer gave a new account' },
  adminApproveProposal: { note: 'Checked the PSP statement' },
  adminRequestSettlementPixKey: { pixKeyType: 'CNPJ', pixKey: '11222333000181', holderDocument: '11222333000181', reason: 'Merchant letter of 2026-11-20, ticket 4411' },
  adminRejectProposal: { reason: 'The customer asked for the tokens instead' },
  adminMarkOrderFailed: { reason: 'The PSP confirmed the payout PIX was never sent' },
  confirmTotpEnrolment: { code: '492039' },
  createCredential: { label: 'production server', expiresAt: '2027-11-26T00:00:00Z', allowedIps: ['203.0.113.0/24', '2001:db8::/32'], scopes: ['read', 'payments.write'] },
  adminCreateCredential: { label: 'issued by support', scopes: ['read'] },
  updateUserRole: { role: 'VIEWER' },
  requestPasswordReset: { email: 'ana.souza@example.com' },
  completePasswordReset: { password: 'correct horse battery staple' },
  changeMyPassword: { currentPassword: 'correct horse battery staple', newPassword: 'purple monkey dishwasher lamp' },
  inviteUser: { email: 'joao.lima@example.com', role: 'DEVELOPER' },
  acceptInvitation: { password: 'correct horse battery staple' },
  createReceiver: {
    type: 'PF',
    document: '52998224725',
    name: 'Maria da Silva',
    email: 'maria.silva@example.com',
    phone: '+5511987654321',
    addressCity: 'São Paulo',
    addressState: 'SP',
    createManagedWallet: true,
    limits: { dailyLimitBrl: 50000, dailyTransactionLimit: 20, nightTransactionsEnabled: false },
  },
  updateReceiver: { email: 'maria.silva@example.org', phone: '+5511912345678' },
  replaceReceiverLimits: { dailyLimitBrl: 100000, dailyTransactionLimit: null, nightTransactionsEnabled: true },
  submitReceiverKyc: {
    birthDate: '1988-04-12',
    motherName: 'Ana da Silva',
    documents: [
      { type: 'ID_FRONT', reference: 'kyc/52998224725/id-front.jpg' },
      { type: 'SELFIE', reference: 'kyc/52998224725/selfie.jpg' },
    ],
  },
  createQuote: { type: 'PAYIN', token: 'USDC', amountBrl: 1500, receiverId: RECEIVER_ID },
  createPayin: { receiverId: RECEIVER_ID, amountBrl: 1500, quoteId: QUOTE_ID, externalId: 'invoice-2026-0042' },
  createPayout: {
    receiverId: RECEIVER_ID,
    amountCrypto: 250,
    sourceToken: 'USDC',
    pixKey: 'maria.silva@example.com',
    pixKeyType: 'EMAIL',
    externalId: 'withdrawal-2026-0107',
  },
  sandboxDecideKyc: { decision: 'APPROVE' },
  sandboxPayPixCharge: {},
  sandboxPayStandingPixCharge: { amountBrl: '150.00', payer: { document: '123.456.789-09', name: 'Carlos Pagador' } },
  sandboxMakeDeposit: {},
  sandboxFailOrderStep: { step: 'PIX_PAYOUT', reason: 'recipient account closed' },
  sandboxArmOrderFailure: { step: 'PIX_REFUND', reason: 'payer account closed' },
  sandboxRunSettlement: {},
  sandboxRegisterPixKey: { key: 'maria.silva@example.com', keyType: 'EMAIL', document: '52998224725' },
  sandboxOpenMedClaim: { reason: 'Golpe: o pagador não reconhece a transação', defenseHours: 72 },
  sandboxDecideMedClaim: { outcome: 'ACCEPTED' },
  submitDisputeDefense: {
    justification: 'The payer is the receiver: KYC-verified, paying from their own account, and the tokens reached their own wallet',
    evidence: [{ description: 'Signed delivery receipt', url: 'https://files.example.com/receipts/8812.pdf', sha256: 'a3f1c9d27e4b5a6c8d0e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e' }],
  },
  createStandingPixCharge: { amountBrl: '150.00', targetToken: 'USDC', description: 'Mensalidade' },
  createStandingDepositAddress: { sourceToken: 'USDC', description: 'Saques do cliente' },
  sandboxDepositToStandingAddress: { amountCrypto: '250' },
  setMarkup: { bps: 50, flatBrl: '1.50', capBrl: '25.00' },
  createPayoutBatch: { token: 'USDC', items: [{ receiverId: RECEIVER_ID, amountCrypto: '100.00', externalId: 'payroll-2026-11-001' }, { receiverId: RECEIVER_ID, amountCrypto: '250.50', externalId: 'payroll-2026-11-002' }] },
  setPayoutBatchSettings: { approvalThresholdBrl: '50000.00' },
  sandboxFundPayoutBatch: { amountCrypto: '350.50' },
  replaceFeeTiers: [
    { minVolumeBrl: 0, maxVolumeBrl: 100000, merchantFeePercentage: 0.01 },
    { minVolumeBrl: 100000, maxVolumeBrl: null, merchantFeePercentage: 0.005 },
  ],
  createWebhookEndpoint: {
    url: 'https://merchant.example.com/webhooks/exchange',
    description: 'Order updates',
    eventTypes: ['order.completed', 'order.failed', 'order.refunded'],
  },
  updateWebhookEndpoint: { enabled: false },
  recoverWebhookEndpoint: { since: '2026-11-22T03:00:00.000Z' },
  signReceiverTransaction: { transaction: WIRE_TRANSACTION },
  signAndSendReceiverTransaction: { transaction: WIRE_TRANSACTION },
  signMerchantTransaction: { transaction: WIRE_TRANSACTION },
  signAndSendMerchantTransaction: { transaction: WIRE_TRANSACTION },
  sandboxAirdrop: { address: SELF_HOSTED_WALLET, lamports: 1_000_000_000 },
  adminCreateMerchant: { name: 'Acme Pagamentos Ltda' },
  adminSetDestinationPolicy: { destinationPolicy: 'ANY', reason: 'Marketplace paying its sellers’ own accounts; contract 2026-114' },
  adminSetMerchantPolicies: { payerPolicy: 'FIRST_PARTY', walletOwnershipPolicy: 'LIMITED', unprovenWalletLimitBrl: 500, reason: 'Compliance review 2026-11: first-party PIX only' },
  createWalletOwnershipChallenge: { walletAddress: SELF_HOSTED_WALLET },
  proveWalletOwnership: {
    challengeId: CHALLENGE_ID,
    signature: SIWS_SIGNATURE,
  },
  adminRejectKyc: { reason: 'The selfie does not match the ID photo' },
  adminReplacePlatformFeeTiers: [
    { minVolumeBrl: 0, maxVolumeBrl: 500000, platformFeePercentage: 0.015 },
    { minVolumeBrl: 500000, maxVolumeBrl: null, platformFeePercentage: 0.01 },
  ],
  adminRunSettlements: { cutoff: '2026-11-22T03:00:00.000Z', merchantId: MERCHANT_ID },
  adminCreateTreasuryFunding: {
    currency: 'USDC',
    amount: '250000.000000',
    reference: '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW',
    note: 'Opening balance, transfer from the cold wallet',
  },
};
