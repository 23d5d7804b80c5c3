/**
 * The receiver events of the spec (Events, Receiver events), defined once: the payload schemas
 * here are what the emitter builds and what the webhook catalog will publish.
 */
import { Type } from 'typebox';
import type { ReceiversTable } from './tables.ts';
import type { EventDefinition, OutboxEvent } from '../../platform/outbox.ts';

const commonFields = {
  event: Type.String({ description: 'Event name' }),
  receiverId: Type.String({ format: 'uuid' }),
  type: Type.Enum(['PF', 'PJ'], { description: 'Person type' }),
  name: Type.String(),
  email: Type.String(),
  kycStatus: Type.String(),
  kycReviewedAt: Type.String({ format: 'date-time' }),
  timestamp: Type.String({ format: 'date-time', description: 'ISO 8601 UTC with milliseconds' }),
  deliveryId: Type.String({ description: 'Unique identifier of the delivery' }),
};

export const RECEIVER_EVENTS = {
  'receiver.kyc_approved': {
    description: "An administrator approved the receiver's KYC",
    kycStatus: 'APPROVED',
    payload: Type.Object(commonFields),
  },
  'receiver.kyc_rejected': {
    description: "An administrator rejected the receiver's KYC",
    kycStatus: 'REJECTED',
    payload: Type.Object({
      ...commonFields,
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
