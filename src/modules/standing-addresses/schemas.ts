/**
 * Standing deposit addresses over HTTP (issue 43, item 1; docs/decisions/0046-standing-addresses-hold-over-limit-deposits.md):
 * what a merchant sends to make one and what it reads back.
 */
import { Type } from 'typebox';
import { ActivityStatus, ChainField, HumanName, Nullable, StrictObject, Timestamp, TokenField, Uuid } from '../../http/schemas.ts';
import { PIX_KEY_TYPES } from '../orders/schemas.ts';

export const CreateStandingAddressBody = StrictObject(
  {
    sourceToken: Type.Optional(TokenField),
    chain: Type.Optional(ChainField),
    pixKey: Type.Optional(
      Type.String({ minLength: 1, maxLength: 77, description: "Where every deposit's BRL is paid. Default: the receiver's document as a CPF or CNPJ key. Under the merchant's RECEIVER_ONLY destination policy, a key held by the receiver only", examples: ['joao@example.com'] }),
    ),
    pixKeyType: Type.Optional(Type.Enum(PIX_KEY_TYPES, { title: 'PixKeyType', description: 'Required with pixKey' })),
    recipientName: Type.Optional(HumanName("Default: the receiver's name")),
    description: Type.Optional(Type.String({ minLength: 1, maxLength: 140, description: "The merchant's own label", examples: ['Carteira da loja'] })),
  },
  { title: 'CreateStandingDepositAddressRequest' },
);

export const StandingAddressParams = StrictObject({ id: Uuid('The receiver'), addressId: Uuid('The standing deposit address') });

export const StandingAddressSchema = Type.Object(
  {
    id: Uuid(),
    receiverId: Uuid(),
    status: ActivityStatus('DISABLED: a deposit still sent to it makes no order'),
    chain: Type.String(),
    token: Type.String({ description: 'The token every deposit must be' }),
    depositAddress: Type.String({ description: "The address senders pay (a wallet address: the sender's wallet derives its token account); this standing address's own, never another's", examples: ['7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU'] }),
    pixKey: Type.String({ description: "The receiver's PIX key every deposit's PAYOUT pays" }),
    pixKeyType: Type.Enum(PIX_KEY_TYPES, { title: 'PixKeyType' }),
    recipientName: Type.String(),
    description: Nullable(Type.String()),
    createdAt: Timestamp(),
    disabledAt: Nullable(Timestamp()),
  },
  {
    $id: 'StandingDepositAddress',
    title: 'StandingDepositAddress',
    description: "A receiver's permanent deposit address: every deposit of its token becomes a PAYOUT at the rate of the moment it is credited, paid to its PIX key (or is held for review: its deposits list).",
  },
);

export const StandingAddressList = Type.Object(
  { data: Type.Array(StandingAddressSchema, { description: 'Newest first' }) },
  { title: 'StandingDepositAddressList' },
);

export const StandingDepositSchema = Type.Object(
  {
    signature: Type.String({ description: "The deposit's transaction signature: credited once" }),
    amountCrypto: Type.Number({ description: 'Token units deposited' }),
    token: Type.String(),
    status: Type.Enum(['PENDING', 'ORDERED', 'HELD_BELOW_MINIMUM', 'HELD_OVER_LIMIT'], {
      title: 'StandingDepositStatus',
      description: 'PENDING: its PAYOUT not made yet; ORDERED: orderId pays it; HELD_*: refused when made (below the minimum order; over a bound or limit, or the receiver no longer eligible), held at the address for review',
    }),
    holdReason: Nullable(Type.String({ description: 'Why held: the refusal code and message' })),
    orderId: Nullable(Uuid()),
    detectedAt: Timestamp(),
  },
  { $id: 'StandingDeposit', title: 'StandingDeposit' },
);

export const StandingDepositList = Type.Object({ data: Type.Array(StandingDepositSchema, { description: 'Newest first' }) }, { title: 'StandingDepositList' });

export const SandboxStandingDepositBody = StrictObject(
  { amountCrypto: Type.String({ pattern: '^[0-9]+(\\.[0-9]+)?$', description: 'Token units that arrive', examples: ['25.5'] }) },
  { title: 'SandboxStandingDepositRequest' },
);
