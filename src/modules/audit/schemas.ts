/**
 * The audit log's shapes: an entry as a merchant reads it (GET /audit-log) and as an operator
 * reads it (GET /admin/audit-log, with the merchant it concerns), and their filters.
 */
import { Type } from 'typebox';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../http/pagination.ts';
import { Timestamp, Uuid } from '../../http/schemas.ts';

const entryFields = {
  id: Uuid(),
  actor: Type.String({ description: '`user:<id>` for a person, `admin-api@<ip>` or `cli` for an operator, `system` for the platform' }),
  action: Type.String({ description: 'e.g. `user.invite`, `user.withdraw_invitation`, `user.accept_invitation`, `user.create`, `user.set_role`, `user.remove`, `credential.issue`, `credential.revoke`, `payout_batch.approve`, `payout_batch.set_threshold`' }),
  targetType: Type.String({ description: '`user`, `invitation`, `credential`, `payout_batch` or `payout_batch_settings`' }),
  targetId: Type.Union([Type.String(), Type.Null()]),
  details: Type.Record(Type.String(), Type.Unknown(), { description: 'What changed: `before` and `after` where there is a state (never a secret)' }),
  requestId: Type.Union([Type.String(), Type.Null()], { description: 'The request that made the change' }),
  createdAt: Timestamp(),
};

export const AuditEntrySchema = Type.Object(entryFields, { title: 'AuditEntry' });

export const OperatorAuditEntrySchema = Type.Object(
  {
    ...entryFields,
    action: Type.String({ description: 'e.g. `merchant.create`, `credential.issue`, `receiver.kyc_approve`, `platform_fee_tiers.replace`, `settlements.run`, `treasury.fund`, and the team actions of `AuditEntry`' }),
    targetType: Type.String({ description: 'e.g. `merchant`, `credential`, `receiver`, `user`, `invitation`, `platform`' }),
    merchantId: Type.Union([Uuid(), Type.Null()], { description: 'The merchant the entry was recorded for (its people read it at GET /audit-log); null for the platform’s own entries and for operator decisions that name their merchant in `details` only' }),
  },
  { title: 'OperatorAuditEntry' },
);

const Limit = Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE, description: `Page size, at most ${MAX_PAGE_SIZE}` });
const Cursor = Type.Optional(Uuid('The `nextCursor` of the previous page'));

/** The filters both readers share. */
export const auditFilterFields = {
  action: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Only this action' })),
  actor: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Only this actor, e.g. `user:<id>`' })),
  from: Type.Optional(Timestamp('Entries at or after this time')),
  to: Type.Optional(Timestamp('Entries before this time')),
};

/** An operator's filters: the merchant's, plus the target and the merchant. */
export const operatorAuditFilterFields = {
  ...auditFilterFields,
  targetType: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Only targets of this type, e.g. `receiver`' })),
  targetId: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Only this target (with or without targetType)' })),
  merchantId: Type.Optional(Uuid('Only entries recorded for this merchant')),
};

export const AuditLogQuery = Type.Object({ limit: Limit, cursor: Cursor, ...auditFilterFields }, { additionalProperties: false });
export const OperatorAuditLogQuery = Type.Object({ limit: Limit, cursor: Cursor, ...operatorAuditFilterFields }, { additionalProperties: false });
export const OperatorAuditExportQuery = Type.Object(operatorAuditFilterFields, { additionalProperties: false });

export const AuditLogPageSchema = Type.Object({ data: Type.Array(AuditEntrySchema), nextCursor: Type.Union([Uuid(), Type.Null()]) }, { title: 'AuditLogPage' });
export const OperatorAuditLogPageSchema = Type.Object(
  { data: Type.Array(OperatorAuditEntrySchema), nextCursor: Type.Union([Uuid(), Type.Null()], { description: 'Pass as `cursor` for the next (older) page; null on the last' }) },
  { title: 'OperatorAuditLogPage' },
);
