/**
 * The back office's MED claims as data: the operator's view of a claim (with the merchant and
 * the PSP's infraction id); the statuses, the list's search parameters and the deadline's urgency
 * are both apps' (lib/disputes.ts).
 */
import type { components } from '../../../api/schema.ts';

export { DISPUTE_STATUSES, deadlineUrgency, disputesSearch, safeHttpUrl, type DisputeOutcome, type DisputeStatus, type DisputesSearch } from '../../../lib/disputes.ts';

export type AdminDispute = components['schemas']['AdminDispute'];
export type DisputeReturnStatus = NonNullable<AdminDispute['returnStatus']>;
