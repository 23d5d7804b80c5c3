/**
 * Answer examples of standing deposit addresses (docs/decisions/0046): a receiver's permanent
 * Solana address whose every credited deposit makes a PAYOUT to its PIX key, and the deposits it
 * took, one made into an order and one held below the minimum.
 */
import type { ResponseExamples } from './table.ts';
import { PAYOUT_ID, RECEIVER_ID, RECEIVER_NAME } from './values.ts';

const ADDRESS = {
  id: '019ad2f0-6b1a-7c4e-9d2f-3e5a7b9c1d04',
  receiverId: RECEIVER_ID,
  status: 'ACTIVE',
  chain: 'solana',
  token: 'USDC',
  depositAddress: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU',
  pixKey: '12345678909',
  pixKeyType: 'CPF',
  recipientName: RECEIVER_NAME,
  description: 'Saques do cliente',
  createdAt: '2026-11-24T14:20:11.902Z',
  disabledAt: null,
};

const DEPOSITS = {
  data: [
    { signature: '4sGjMW1sUnHzSxGspuhpqLDx6wiyjNtZAMdL4VZHirAn3Bd1xZsUcR1vC5nW8eYt2TqkJ9fBpZyD3hR7mXw6aQe', amountCrypto: 0.5, token: 'USDC', status: 'HELD_BELOW_MINIMUM', holdReason: 'VALIDATION_ERROR: the deposit is worth less than the minimum order (BRL 10.00)', orderId: null, detectedAt: '2026-11-24T15:02:44.118Z' },
    { signature: '3vZ8mQ2kT5rW9xY1cB4nH7jL6pD2fG8sA5eR3tU9iO1wQ7yE4rT6uI8oP2aS5dF7gH9jK1lZ3xC5vB7nM9qW2e', amountCrypto: 250, token: 'USDC', status: 'ORDERED', holdReason: null, orderId: PAYOUT_ID, detectedAt: '2026-11-24T14:41:09.530Z' },
  ],
};

export const STANDING_ADDRESS_RESPONSE_EXAMPLES: ResponseExamples = {
  createStandingDepositAddress: { 201: ADDRESS },
  listStandingDepositAddresses: { 200: { data: [ADDRESS] } },
  getStandingDepositAddress: { 200: ADDRESS },
  disableStandingDepositAddress: { 200: { ...ADDRESS, status: 'DISABLED', disabledAt: '2026-11-30T18:22:07.514Z' } },
  listStandingAddressDeposits: { 200: DEPOSITS },
  sandboxDepositToStandingAddress: { 200: DEPOSITS },
};
