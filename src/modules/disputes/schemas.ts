/**
 * The disputes API's shapes: a dispute as merchants and operators see it, the defense body, the
 * list's query. Amounts leave as JSON numbers, like the spec's.
 */
import { Type } from 'typebox';
import { PageOf, PageQuery } from '../../http/pagination.ts';
import { DisputeOutcomeSchema, DisputeStatusSchema, Nullable, StrictObject, Timestamp, Uuid } from '../../http/schemas.ts';
import { toJsonNumber } from '../../lib/money.ts';
import type { DisputeListRow } from './repo.ts';
import { NullableReturnStatus, publishedReturnStatus } from './return-status.ts';

// Titled: each is one component of the OpenAPI document, referred to by the merchant's and the
// operator's dispute, by the lists' filter (http/openapi-components.ts) and by an order's timeline.
export { DisputeOutcomeSchema, DisputeStatusSchema } from '../../http/schemas.ts';

const Evidence = StrictObject({
  description: Type.String({ minLength: 1, maxLength: 500, description: 'What the piece of evidence shows' }),
  // A web address only: operators open it from the back office, and a `javascript:` or `data:` URI is a valid URI.
  url: Type.Optional(Type.String({ format: 'uri', pattern: '^[Hh][Tt][Tt][Pp][Ss]?://', maxLength: 2000, description: 'Where the PSP can read it: an http or https address (another scheme is 400 VALIDATION_ERROR)' })),
  sha256: Type.Optional(Type.String({ pattern: '^[0-9a-f]{64}$', description: "The document's SHA-256, hex, so what was submitted can be shown later" })),
});

export const DefenseBody = StrictObject(
  {
    justification: Type.String({ minLength: 10, maxLength: 1500, description: 'Why the PIX was not a fraud: who paid, for what, what was delivered' }),
    evidence: Type.Optional(Type.Array(Evidence, { maxItems: 10, description: 'Up to 10 references to evidence (receipts, delivery records, KYC of the payer)' })),
  },
  { title: 'DisputeDefenseRequest' },
);

const SubmittedEvidence = Type.Object({ description: Type.String(), url: Type.Optional(Type.String()), sha256: Type.Optional(Type.String()) }, { title: 'DisputeEvidence' });
const SubmittedDefense = Type.Object(
  { justification: Type.String(), evidence: Type.Array(SubmittedEvidence), submittedAt: Timestamp() },
  { title: 'DisputeDefense', description: 'The defense as submitted to the PSP' },
);

export const DisputeSchema = Type.Object(
  {
    id: Uuid(),
    orderId: Uuid('The PAYIN whose PIX is claimed'),
    externalId: Nullable(Type.String()),
    status: DisputeStatusSchema,
    reason: Type.String({ description: "What the payer's PSP reported" }),
    amountBrl: Type.Number({ description: 'The amount claimed' }),
    pixEndToEndId: Type.String({ description: 'The PIX claimed' }),
    reportedAt: Timestamp(),
    defenseDeadline: Timestamp('A defense is taken until then'),
    orderHeld: Type.Boolean({ description: 'Whether the claim stopped the order before its tokens left' }),
    defense: Type.Union([SubmittedDefense, Type.Null()]),
    outcome: Type.Union([DisputeOutcomeSchema, Type.Null()], {
      description:
        'What the end did: ORDER_REFUNDED (returned by the order, which ends REFUNDED), CHARGED_BACK (the tokens had left: returned from the platform and charged to your fee balance), ALREADY_REFUNDED, RELEASED (a held order went on), NO_EFFECT; null while open or while the order is still moving',
    }),
    returnStatus: NullableReturnStatus,
    resolvedAt: Nullable(Timestamp()),
    createdAt: Timestamp(),
    updatedAt: Timestamp(),
  },
  { $id: 'Dispute', title: 'Dispute' },
);

export const AdminDisputeSchema = Type.Object({ ...DisputeSchema.properties, merchantId: Uuid(), pspInfractionId: Type.String() }, { $id: 'AdminDispute', title: 'AdminDispute' });

export const DisputeListQuery = StrictObject({
  ...PageQuery,
  status: Type.Optional(DisputeStatusSchema),
  orderId: Type.Optional(Uuid()),
});

export const DisputePage = PageOf(DisputeSchema, 'DisputePage');
export const AdminDisputeListQuery = StrictObject({ ...DisputeListQuery.properties, merchantId: Type.Optional(Uuid()) });
export const AdminDisputePage = PageOf(AdminDisputeSchema, 'AdminDisputePage');

export function toDispute(row: DisputeListRow) {
  return {
    id: row.id,
    orderId: row.order_id,
    externalId: row.external_id,
    status: row.status,
    reason: row.reason,
    amountBrl: toJsonNumber(row.amount_brl),
    pixEndToEndId: row.end_to_end_id,
    reportedAt: row.reported_at.toISOString(),
    defenseDeadline: row.defense_deadline.toISOString(),
    orderHeld: row.order_held,
    defense: row.defense && row.defended_at ? { ...row.defense, submittedAt: row.defended_at.toISOString() } : null,
    outcome: row.outcome,
    returnStatus: publishedReturnStatus(row.return_status),
    resolvedAt: row.resolved_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export const toAdminDispute = (row: DisputeListRow) => ({ ...toDispute(row), merchantId: row.merchant_id, pspInfractionId: row.psp_infraction_id });
