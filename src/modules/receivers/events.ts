/**
 * The receiver events of the spec (Events, Receiver events), defined once: the payload schemas
 * here are what the emitter builds and what the webhook catalog will publish.
 */
import { Type, type TProperties } from 'typebox';
import { PersonTypeSchema } from './schemas.ts';
import type { ReceiversTable } from './tables.ts';
import type { EventDefinition, OutboxEvent } from '../../platform/outbox.ts';

const commonFields = {
  receiverId: Type.String({ format: 'uuid' }),
  type: PersonTypeSchema,
  name: Type.String(),
  email: Type.String(),
  kycReviewedAt: Type.String({ format: 'date-time' }),
  timestamp: Type.String({ format: 'date-time', description: 'ISO 8601 UTC with milliseconds' }),
  deliveryId: Type.String({ description: 'Unique identifier of the delivery' }),
};

/** A closed payload (the spec's field list), `event` and `kycStatus` fixed to what the event reports. */
const payloadOf = (name: string, kycStatus: string, title: string, description: string, extra: TProperties = {}) =>
  Type.Object(
    {
      event: Type.Literal(name, { description: 'Event name' }),
      ...commonFields,
      kycStatus: Type.Literal(kycStatus, { description: 'The KYC status the decision set' }),
      ...extra,
    },
    { title, description, additionalProperties: false },
  );

const APPROVED = "An administrator approved the receiver's KYC";
const REJECTED = "An administrator rejected the receiver's KYC";

export const RECEIVER_EVENTS = {
  'receiver.kyc_approved': {
    description: APPROVED,
    kycStatus: 'APPROVED',
    payload: payloadOf('receiver.kyc_approved', 'APPROVED', 'ReceiverKycApprovedEvent', APPROVED),
  },
  'receiver.kyc_rejected': {
    description: REJECTED,
    kycStatus: 'REJECTED',
    payload: payloadOf('receiver.kyc_rejected', 'REJECTED', 'ReceiverKycRejectedEvent', REJECTED, {
      kycRejectionReason: Type.String({ description: 'Message visible to the receiver at the next submission' }),
    }),
  },
} as const;

/** The receiver events as the webhook catalog publishes them. */
export const receiverEventDefinitions = (): EventDefinition[] =>
  Object.entries(RECEIVER_EVENTS).map(([name, definition]) => ({
    name,
    description: definition.description,
    category: 'receiver',
    orderTypes: null,
    status: definition.kycStatus,
    statusField: 'kycStatus',
    payload: definition.payload,
  }));

type ReceiverRow = Pick<ReceiversTable, 'id' | 'merchant_id' | 'person_type' | 'name' | 'email'>;

/** The outbox event of a KYC decision, with exactly the spec's fields (deliveryId comes per delivery). */
export function kycDecisionEvent(
  receiver: ReceiverRow,
  decision: { approved: true } | { approved: false; reason: string },
  decidedAt: Date,
): OutboxEvent {
  const at = decidedAt.toISOString();
  const common = {
    receiverId: receiver.id,
    type: receiver.person_type,
    name: receiver.name,
    email: receiver.email,
    kycReviewedAt: at,
    timestamp: at,
  };
  return decision.approved
    ? { merchantId: receiver.merchant_id, event: 'receiver.kyc_approved', payload: { ...common, kycStatus: 'APPROVED' } }
    : {
        merchantId: receiver.merchant_id,
        event: 'receiver.kyc_rejected',
        payload: { ...common, kycStatus: 'REJECTED', kycRejectionReason: decision.reason },
      };
}
