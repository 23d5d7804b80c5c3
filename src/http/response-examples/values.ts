/**
 * The one story every example of the documents tells (request bodies in openapi-examples.ts,
 * answers in this folder): the merchant Acme Pagamentos pays its receiver Maria da Silva
 * R$ 1,500.00 into USDC (a PAYIN, quoted first), and Maria sells 250 USDC back for a PIX (a
 * PAYOUT). Ids, amounts, addresses and times are shared here so that an order's receiverId is the
 * receiver's id, a settlement sums the fees of the orders shown, and so on. Examples, not live
 * records: the ids are UUIDs v7 of late 2026, the addresses base58 public keys no one holds.
 */

export const MERCHANT_ID = '0195f3b8-5c02-7a9d-b3e1-6f4a2d8c9e50';
export const MERCHANT_NAME = 'Acme Pagamentos Ltda';
export const RECEIVER_ID = '0195f3c2-7a41-7c3e-9d1a-4b2e8f6a1c07';
export const RECEIVER_NAME = 'Maria da Silva';
export const QUOTE_ID = '0195f3c4-1b7e-7f20-8a55-2d9c0e4b7f13';
export const PAYIN_ID = '019ab6f2-0c3e-7d41-9b8a-2e5f7c1d4a90';
export const PAYOUT_ID = '019ab6f8-4d17-7a02-8c6e-9f1b3a5d7e24';
export const DISPUTE_ID = '019abc21-6e90-7f35-a1d4-5b8c2e7f0a63';
export const CHALLENGE_ID = '0195f3c6-2d8a-7b41-9c3e-5a7f1e2b4d60';
export const CREDENTIAL_ID = '0195f3b9-1f6d-7c28-b4a0-3e9d5c7a1f82';
export const OWNER_USER_ID = '0195f3b8-9a3c-7e14-8f2b-6d0c4a1e7b35';
export const DEVELOPER_USER_ID = '019a7e10-3c5b-7d96-a2f4-8b1e6c0d9a47';
export const OPERATOR_ID = '0195f2a0-7b4e-7c19-9d3a-1f6e8b2c5a04';
export const SECOND_OPERATOR_ID = '0195f2a1-2c8f-7e53-b6d1-4a9e0c3f7b18';
export const WEBHOOK_ENDPOINT_ID = '019a1c44-8e2b-7f60-9a7d-3c5e1b8f2d96';
export const WEBHOOK_DELIVERY_ID = '019ab6f3-9f21-7b84-a6c3-0d2e5f8a1b47';
export const WEBHOOK_EVENT_ID = '019ab6f3-9f1e-7a33-8d5b-6e0c2f4a9b71';
export const SETTLEMENT_ID = '019ad0e0-1a2b-7c3d-8e4f-5a6b7c8d9e01';
export const APPROVAL_ID = '019ab8a2-5d3c-7e19-b0f4-7a2c9e1d6b38';
export const TREASURY_FUNDING_ID = '0195f2b0-4e6a-7d82-9c1b-3f5a7e9d2b64';
export const RECONCILIATION_ID = '019ad0f1-7c3e-7a95-b2d8-1e4f6a9c0b57';
export const SIGN_REQUEST_ID = '019ab702-3b5d-7f18-9e2a-6c4d8f1a3e05';
export const ENTRY_IDS = {
  payinPixReceived: '019ab6f3-9e0d-7c51-a4b2-8f6e1d3c5a79',
  payinCompleted: '019ab6f4-2a7c-7e06-b9d3-5c1f8a4e6b20',
  settlement: '019ad0e0-1a2c-7f4e-9a5b-6c7d8e9f0a12',
};

export const RECEIVER_WALLET = 'DChpFixuyLe3oG46sGJV3LxjV2NWXn1FH7LhTkCNLcDv';
/** A self-hosted wallet the receiver proves (the request examples' walletAddress). */
export const SELF_HOSTED_WALLET = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';
export const DEPOSIT_ADDRESS = '7vtnTisW77HRnXbEi6HEMa2qpDnu6bCZ77vZarZHPQGx';
export const TREASURY_ADDRESS = 'HiYdfqiGiFKJG6qF2psVT3kXZBChMacRjLVF59Gqxgfc';
export const FEE_PAYER = 'H1acvjtsBiDCpV3Ey83xXAFmsoscgyoZTwgvgsmGPkx2';
export const MERCHANT_WALLET = '9tm1HsQFpNbnB9F5hRGzQiQ29t7JPMNASpUSq9NmMaUL';
export const SANDBOX_DEPOSITOR = 'FoHQLeC8NS7JByQBLeWQ9DHWsHTNmrHMB8HrQdV9YsUb';
/** Solana transaction signatures (base58 of 64 bytes). */
export const PAYIN_TRANSFER_SIGNATURE = 'LbcGpX4qx4h8YbcA7hWG2Dut4p6GafQFr8FawHQWtrRniPteaE1zLH3UgFeE9NgswKgeNVH3Jh1e4UqQPcXcGkg';
export const PAYOUT_DEPOSIT_SIGNATURE = 'ZHTXUi8TsviAMinLyCmzw76tetRAFQ7kRhRQujWeGr5ZzdehQLD5od8TETAoJ33F9LXRTYqcVufxf1jAhPpsTvW';
export const WALLET_SEND_SIGNATURE = '2tG9JcUS8ZHtkHSJ7kNy4FhNzaZMfp9eFE476aq88SwfqXE28pNQaNpvWrQjnqa5T1RPfPRioB2cz9dLMPm2iCNJ';
export const SIWS_SIGNATURE = '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW';
/** PIX end-to-end ids: E, the paying institution's ISPB, yyyyMMddHHmm, 11 characters. */
export const PAYIN_END_TO_END_ID = 'E18236120202611241405a8Kx2Lm9QpZ';
export const PAYOUT_END_TO_END_ID = 'E00000000202611241552Rt7Vb3Nc0Hs';
/** The PIX charge's txid (26 to 35 letters and digits). */
export const PAYIN_TXID = '7d9f0a2b4c6e48a1b3d5f7e9a0c2e4f6';
/**
 * A dynamic BR Code (EMV QR, copy-and-paste) for R$ 1,500.00: the payload's location URL, amount,
 * merchant name and city, with its CRC16 (field 63) computed.
 */
export const PIX_PAYMENT_CODE =
  '00020101021226950014br.gov.bcb.pix2573pix.psp-sandbox.example.com.br/qr/v2/cob/7d9f0a2b4c6e48a1b3d5f7e9a0c2e4f652040000530398654071500.005802BR5920ACME PAGAMENTOS LTDA6009SAO PAULO62070503***6304CBAC';
/** What @solana/kit's getBase64EncodedWireTransaction returns (shortened here), signed by the wallet. */
export const SIGNED_WIRE_TRANSACTION =
  'AUm8f2Kx1vQe7Hn0cP3sLdR5tWb9JyZa4FgU6oNiEk2MjXq8TrCw0VhYpG1lDzS7uBnA3eKxO5fIgQ9HsLm2RtVcAQACBAZh/LTdj9WfckNE9VTZlfqFEF9rGa1HdMauLxu2NZuiAQIEBmH8tN2P1Z9yS0T1VNmV+oUQX2sZrUd0xq4vG7Y1m6I=';

/** Requests' ids as the service answers them (x-request-id). */
export const REQUEST_ID = '019ab6f2-0c3b-7a18-8e6d-4f2a9c1b7e53';

export const MERCHANT = { id: MERCHANT_ID, name: MERCHANT_NAME, status: 'ACTIVE', createdAt: '2026-03-02T12:00:41.207Z' };

export const RECEIVER = {
  id: RECEIVER_ID,
  merchantId: MERCHANT_ID,
  type: 'PF',
  documentType: 'CPF',
  document: '52998224725',
  name: RECEIVER_NAME,
  email: 'maria.silva@example.com',
  phone: '+5511987654321',
  addressStreet: 'Rua Augusta',
  addressNumber: '1508',
  addressComplement: 'apto 42',
  addressNeighborhood: 'Consolação',
  addressCity: 'São Paulo',
  addressState: 'SP',
  addressZipCode: '01304001',
  status: 'ACTIVE',
  kycStatus: 'APPROVED',
  kycRejectionReason: null,
  kycSubmittedAt: '2026-03-18T13:25:09.544Z',
  kycReviewedAt: '2026-03-18T16:02:47.130Z',
  walletAddress: RECEIVER_WALLET,
  hasManagedWallet: true,
  limits: { dailyLimitBrl: 50000, dailyTransactionLimit: 20, nightTransactionsEnabled: false },
  createdAt: '2026-03-18T13:21:30.882Z',
  updatedAt: '2026-03-18T16:02:47.130Z',
};

/** A receiver just created (request example createReceiver): KYC not yet sent. */
export const NEW_RECEIVER = {
  ...RECEIVER,
  addressStreet: null,
  addressNumber: null,
  addressComplement: null,
  addressNeighborhood: null,
  addressZipCode: null,
  status: 'PENDING',
  kycStatus: 'PENDING',
  kycSubmittedAt: null,
  kycReviewedAt: null,
  updatedAt: RECEIVER.createdAt,
};

/** A receiver whose KYC waits for review. */
export const SUBMITTED_RECEIVER = { ...NEW_RECEIVER, kycStatus: 'SUBMITTED', kycSubmittedAt: RECEIVER.kycSubmittedAt, updatedAt: RECEIVER.kycSubmittedAt };

/**
 * The PAYIN as created: R$ 1,500.00 at 5.4120 BRL per USDC, 1.5 % of fees (platform 0.5 %,
 * merchant 1 %), 1,477.50 converted: 273.004434 USDC to the receiver's wallet.
 */
export const PAYIN_ORDER = {
  id: PAYIN_ID,
  merchantId: MERCHANT_ID,
  receiverId: RECEIVER_ID,
  type: 'PAYIN',
  status: 'AWAITING_PAYMENT',
  chain: 'solana',
  createdAt: '2026-11-24T14:03:12.418Z',
  updatedAt: '2026-11-24T14:03:12.418Z',
  externalId: 'invoice-2026-0042',
  receiverName: RECEIVER_NAME,
  merchantName: MERCHANT_NAME,
  amountBrl: 1500,
  amountCrypto: 273.004434,
  targetToken: 'USDC',
  sourceToken: null,
  destinationWallet: RECEIVER_WALLET,
  depositAddress: null,
  paymentReference: PAYIN_TXID,
  exchangeRate: 5.412,
  feePercentage: 0.015,
  netAmountBrl: 1477.5,
  amountUsdc: 273.004434,
  amountToken: 273.004434,
  platformFeePercentage: 0.005,
  platformFeeAmountBrl: 7.5,
  merchantFeePercentage: 0.01,
  merchantFeeAmountBrl: 15,
  markup: null,
  pixPaymentCode: PIX_PAYMENT_CODE,
  pixKey: null,
  recipientName: null,
  failureReason: null,
  expiresAt: '2026-11-24T14:33:12.418Z',
  completedAt: null,
  transactions: [],
};

export const PAYIN_PIX_IN = {
  id: '019ab6f3-9e0a-7b2c-8d4e-1f3a5c7e9b02',
  type: 'PIX_IN',
  status: 'CONFIRMED',
  amount: 1500,
  currency: 'BRL',
  createdAt: '2026-11-24T14:05:41.093Z',
  chain: null,
  txHash: PAYIN_END_TO_END_ID,
};
export const PAYIN_CHAIN_TRANSFER = {
  id: '019ab6f4-1f8b-7d3a-9c5e-2a4b6d8f0c13',
  type: 'CHAIN_TRANSFER',
  status: 'CONFIRMED',
  amount: 273.004434,
  currency: 'USDC',
  createdAt: '2026-11-24T14:05:42.310Z',
  chain: 'solana',
  txHash: PAYIN_TRANSFER_SIGNATURE,
};

export const PAYIN_PAID = { ...PAYIN_ORDER, status: 'PAYMENT_RECEIVED', updatedAt: PAYIN_PIX_IN.createdAt, transactions: [PAYIN_PIX_IN] };

export const PAYIN_COMPLETED = {
  ...PAYIN_ORDER,
  status: 'COMPLETED',
  updatedAt: '2026-11-24T14:05:55.871Z',
  completedAt: '2026-11-24T14:05:55.871Z',
  transactions: [PAYIN_PIX_IN, PAYIN_CHAIN_TRANSFER],
};

/**
 * The PAYOUT as created: 250 USDC at 5.3900 BRL per USDC is R$ 1,347.50; fees 6.74 and 13.48;
 * the PIX pays 1,327.28 to the receiver's email key.
 */
export const PAYOUT_ORDER = {
  id: PAYOUT_ID,
  merchantId: MERCHANT_ID,
  receiverId: RECEIVER_ID,
  type: 'PAYOUT',
  status: 'AWAITING_DEPOSIT',
  chain: 'solana',
  createdAt: '2026-11-24T15:48:03.655Z',
  updatedAt: '2026-11-24T15:48:03.655Z',
  externalId: 'withdrawal-2026-0107',
  receiverName: RECEIVER_NAME,
  merchantName: MERCHANT_NAME,
  amountBrl: 1347.5,
  amountCrypto: 250,
  targetToken: null,
  sourceToken: 'USDC',
  destinationWallet: null,
  depositAddress: DEPOSIT_ADDRESS,
  paymentReference: null,
  exchangeRate: 5.39,
  feePercentage: 0.015,
  netAmountBrl: 1327.28,
  amountUsdc: 250,
  amountToken: 250,
  platformFeePercentage: 0.005,
  platformFeeAmountBrl: 6.74,
  merchantFeePercentage: 0.01,
  merchantFeeAmountBrl: 13.48,
  markup: null,
  pixPaymentCode: null,
  pixKey: 'maria.silva@example.com',
  recipientName: RECEIVER_NAME,
  failureReason: null,
  expiresAt: '2026-11-24T16:18:03.655Z',
  completedAt: null,
  transactions: [],
};

export const PAYOUT_DEPOSIT = {
  id: '019ab6f9-0b2d-7e4f-a6c8-3d5f7b9e1a24',
  type: 'CHAIN_DEPOSIT',
  status: 'CONFIRMED',
  amount: 250,
  currency: 'USDC',
  createdAt: '2026-11-24T15:51:27.402Z',
  chain: 'solana',
  txHash: PAYOUT_DEPOSIT_SIGNATURE,
};
export const PAYOUT_DEPOSITED = { ...PAYOUT_ORDER, status: 'DEPOSIT_RECEIVED', updatedAt: PAYOUT_DEPOSIT.createdAt, transactions: [PAYOUT_DEPOSIT] };
