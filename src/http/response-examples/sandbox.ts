/**
 * Answer examples of the sandbox's operations (simulated PIX, chain and MED claims), on the
 * orders and claim of values.ts and trading.ts.
 */
import type { ResponseExamples } from './table.ts';
import { DECIDED_DISPUTE, DISPUTE, SETTLEMENT } from './trading.ts';
import {
  DEPOSIT_ADDRESS,
  PAYIN_COMPLETED,
  PAYIN_PAID,
  PAYOUT_DEPOSITED,
  PAYOUT_DEPOSIT_SIGNATURE,
  PAYOUT_ID,

  SANDBOX_DEPOSITOR,
  SELF_HOSTED_WALLET,
  WALLET_SEND_SIGNATURE,
} from './values.ts';

export const SANDBOX_RESPONSE_EXAMPLES: ResponseExamples = {
  sandboxRegisterPixKey: { 201: { key: 'maria.silva@example.com', keyType: 'EMAIL', holderDocument: '52998224725' } },
  sandboxPayPixCharge: { 200: PAYIN_PAID },
  sandboxPayStandingPixCharge: { 200: PAYIN_PAID },
  sandboxMakeDeposit: {
    200: PAYOUT_DEPOSITED,
    202: {
      orderId: PAYOUT_ID,
      depositAddress: DEPOSIT_ADDRESS,
      depositor: SANDBOX_DEPOSITOR,
      token: 'USDC',
      amount: '250.000000',
      signature: PAYOUT_DEPOSIT_SIGNATURE,
      status: 'SENT',
    },
  },
  sandboxGetDepositor: {
    200: { address: SANDBOX_DEPOSITOR, lamports: '4995000000', token: 'USDC', amount: '99750.000000', tokenAccount: 'BZ8yQ3mWvN5kT2rXp7LcH4gJ9dF6sA1eUoV3iK8nMq2R' },
  },
  sandboxFailOrderStep: {
    200: { ...PAYOUT_DEPOSITED, status: 'FAILED', failureReason: 'recipient account closed', updatedAt: '2026-11-24T15:52:10.118Z' },
  },
  sandboxArmOrderFailure: { 201: { orderId: PAYIN_COMPLETED.id, step: 'PIX_REFUND', reason: 'payer account closed', armedAt: '2026-11-24T14:04:02.557Z' } },
  sandboxRunSettlement: { 200: { settlements: [SETTLEMENT] } },
  sandboxOpenMedClaim: { 201: DISPUTE },
  sandboxDecideMedClaim: { 200: DECIDED_DISPUTE },
  sandboxAirdrop: { 200: { address: SELF_HOSTED_WALLET, lamports: 1_000_000_000 } },
  sandboxGetBalance: { 200: { address: SELF_HOSTED_WALLET, lamports: 1_000_000_000 } },
  sandboxGetTransaction: { 200: { signature: WALLET_SEND_SIGNATURE, status: 'FINALIZED' } },
};

