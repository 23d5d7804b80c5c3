import { Type } from 'typebox';
import { Nullable, StrictObject, Timestamp, Uuid } from '../../http/schemas.ts';
import { PageQuery } from '../../http/pagination.ts';
import { SETTLEMENT_PAYOUT_STATUSES } from '../ledger/tables.ts';
import { SettlementSchema } from '../ledger/schemas.ts';

const KEY_TYPES = ['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'EVP'] as const;

export const SettlementPixKeyBody = StrictObject(
  {
    pixKeyType: Type.Enum(KEY_TYPES, { title: 'PixKeyType', description: 'The kind of PIX key' }),
    pixKey: Type.String({ minLength: 1, maxLength: 77, description: 'The PIX key the merchant asked its settlements be paid to (DICT form; CPF and CNPJ may be punctuated)', examples: ['11222333000181'] }),
    holderDocument: Type.String({ minLength: 11, maxLength: 18, description: "The key holder's CPF or CNPJ (for a CPF or CNPJ key, the key itself)", examples: ['11222333000181'] }),
    reason: Type.String({ minLength: 3, maxLength: 500, description: 'Why (e.g. the merchant’s signed request and where it is filed): read by the approver and kept in the audit log', examples: ['Merchant letter of 2026-12-01, ticket 4411'] }),
  },
  { title: 'SettlementPixKeyRequest' },
);

export const SettlementPixKeySchema = Type.Object(
  {
    id: Uuid(),
    merchantId: Uuid(),
    pixKeyType: Type.Enum(KEY_TYPES, { title: 'PixKeyType', description: 'The kind of PIX key' }),
    pixKey: Type.String({ description: 'The key: in clear to the merchant (its own), masked to operators', examples: ['11222333000181'] }),
    holderDocument: Type.String({ description: "The holder's CPF or CNPJ, masked", examples: ['**.222.333/****-**'] }),
    status: Type.Enum(['PENDING', 'ACTIVE', 'SUPERSEDED'], { description: 'PENDING until a second operator approves its SETTLEMENT_PIX_KEY proposal; ACTIVE: settlements are paid to it; SUPERSEDED by a later key' }),
    requestedAt: Timestamp(),
    activatedAt: Nullable(Timestamp('When it was approved; null while PENDING')),
    approvalId: Type.Union([Uuid(), Type.Null()], { description: 'The approved proposal; null while PENDING' }),
  },
  { title: 'SettlementPixKey' },
);

export const MerchantSettlementPixKeySchema = Type.Object(
  { settlementPixKey: Type.Union([SettlementPixKeySchema, Type.Null()], { description: 'Where settlements are paid; null: none approved yet (settlements wait, AWAITING_PIX_KEY)' }) },
  { title: 'MerchantSettlementPixKey' },
);

export const SettlementPixKeyListSchema = Type.Object({ data: Type.Array(SettlementPixKeySchema) }, { title: 'SettlementPixKeyList' });

export const AdminSettlementsQuery = StrictObject({
  page: PageQuery.page,
  limit: PageQuery.limit,
  merchantId: Type.Optional(Uuid()),
  payoutStatus: Type.Optional(Type.Enum(SETTLEMENT_PAYOUT_STATUSES, { title: 'SettlementPayoutStatus', description: 'Only settlements whose PIX is in this status' })),
});

export const AdminSettlementSchema = Type.Object(
  {
    ...SettlementSchema.properties,
    merchantName: Type.String(),
    providerTransactionId: Nullable(Type.String({ description: "The PSP's id of the PIX sent; null before it is sent" })),
    payoutAttempt: Type.Integer({ minimum: 0, description: 'Sends refused before the current one' }),
  },
  { title: 'AdminSettlement' },
);

export const AdminSettlementPageSchema = Type.Object(
  {
    data: Type.Array(AdminSettlementSchema),
    pagination: Type.Object({ page: Type.Integer(), limit: Type.Integer(), total: Type.Integer() }),
    unpaid: Type.Object(
      { count: Type.Integer({ description: 'Settlements not PAID (of the filter)' }), amountBrl: Type.String({ description: 'What they owe, decimal text' }) },
      { description: 'What settlements owe merchants and have not paid (AWAITING_PIX_KEY, PENDING, SENDING, SENT, FAILED), of the merchant filter' },
    ),
  },
  { title: 'AdminSettlementPage' },
);
