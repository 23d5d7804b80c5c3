/**
 * Standing PIX charges over HTTP (issue 43, item 2; docs/decisions/0045-standing-pix-charges.md):
 * what a merchant sends to make one and what it reads back.
 */
import { Type } from 'typebox';
import { ActivityStatus, BrlAmountInput, SandboxPayer, ChainField, Nullable, StrictObject, Timestamp, TokenField, Uuid } from '../../http/schemas.ts';

export const CreateStandingChargeBody = StrictObject(
  {
    amountBrl: Type.Optional(BrlAmountInput('A fixed amount every PIX to the code must pay (a PIX of another amount is returned); absent: an open code, the payer types the amount')),
    targetToken: Type.Optional(TokenField),
    chain: Type.Optional(ChainField),
    description: Type.Optional(Type.String({ minLength: 1, maxLength: 140, description: "The merchant's own label; never in the BR Code" })),
  },
  { title: 'CreateStandingPixChargeRequest' },
);

export const StandingChargeParams = StrictObject({ id: Uuid('The receiver'), chargeId: Uuid('The standing charge') });

export const StandingChargeSchema = Type.Object(
  {
    id: Uuid(),
    receiverId: Uuid(),
    status: ActivityStatus('DISABLED: a PIX still paid to the code is returned (devolução) and makes a REFUNDED order'),
    txid: Type.String({ description: "The static code's txid (BR Code 62/05): 25 letters and digits, this charge's own; the PSP reports every PIX paid to the code with it", examples: ['Kq3ZbV9tW2xYc7LmN4pRs8TuA'] }),
    amountBrl: Nullable(Type.Number({ description: 'The fixed amount, BRL; null: an open amount' })),
    chain: Type.String(),
    token: Type.String({ description: 'What each PIX buys' }),
    destinationWallet: Type.String({ description: "The receiver's wallet when the charge was made: every PAYIN the charge makes sends its tokens there" }),
    description: Nullable(Type.String()),
    pixCopiaECola: Type.String({ description: "The static BR Code (copy and paste; render it as a QR code): the platform's PIX key, this txid, and the amount when fixed" }),
    createdAt: Timestamp(),
    disabledAt: Nullable(Timestamp()),
  },
  {
    $id: 'StandingPixCharge',
    title: 'StandingPixCharge',
    description:
      "A receiver's standing PIX charge: a static BR Code paid any number of times. Every PIX to it becomes a PAYIN at the rate of the moment the PSP reports it (order.created with sourceKind STANDING_PIX_CHARGE, then the usual PAYIN events); one the receiver's rules refuse is returned to the payer and its order ends REFUNDED with its failureReason.",
  },
);

export const StandingChargeList = Type.Object(
  { data: Type.Array(StandingChargeSchema, { description: 'Newest first' }) },
  { title: 'StandingPixChargeList' },
);

export const SandboxStandingPaymentBody = StrictObject(
  {
    amountBrl: Type.Optional(BrlAmountInput('What the simulated payer pays; default the fixed amount (required for an open code)')),
    payer: Type.Optional(SandboxPayer()),
  },
  { title: 'SandboxStandingPixPaymentRequest' },
);
