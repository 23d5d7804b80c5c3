/**
 * PATCH /receivers/{id}: contact and address only (spec rules 1 to 4); identity fields are
 * immutable. A new name is identity too: the KYC that approved the receiver was of the old one,
 * so renaming an APPROVED receiver sends it back to review (UNDER_REVIEW: the operator checks the
 * new name against the documents already submitted, and approves or rejects as for any review),
 * in the same transaction and audited, both names sealed in the entry (platform/audit/sealed-details.ts).
 * Until then its orders are refused with KYC_NOT_APPROVED.
 * No webhook event: the spec's catalog has none for it, and the merchant made the change and reads
 * the new kycStatus in the answer. A rename to the same name changes nothing.
 */
import type { Static } from 'typebox';
import { inTransaction } from '../../platform/commit-signals.ts';
import type { Db } from '../../db/database.ts';
import { AppError, notFound } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { PersonalData } from '../../lib/personal-data.ts';
import { type AuditActor, recordAudit } from '../../platform/audit/record.ts';
import { RENAME_ACTION, sealAuditDetails } from '../../platform/audit/sealed-details.ts';
import type { ReceiversRepo } from './repo.ts';
import { IMMUTABLE_RECEIVER_FIELDS, type UpdateReceiverBody } from './schemas.ts';
import type { ReceiverRow } from './tables.ts';

/** The nullable text columns a PATCH may set, by API field name. */
const CONTACT_COLUMNS = {
  name: 'name',
  email: 'email',
  phone: 'phone',
  addressStreet: 'address_street',
  addressNumber: 'address_number',
  addressComplement: 'address_complement',
  addressNeighborhood: 'address_neighborhood',
  addressCity: 'address_city',
  addressState: 'address_state',
  addressZipCode: 'address_zip_code',
} as const;

type ContactChanges = Partial<Record<(typeof CONTACT_COLUMNS)[keyof typeof CONTACT_COLUMNS], string>>;

function contactChanges(input: Static<typeof UpdateReceiverBody>): ContactChanges {
  const immutable = IMMUTABLE_RECEIVER_FIELDS.filter((field) => field in input);
  if (immutable.length > 0) {
    throw new AppError(
      'VALIDATION_ERROR',
      'document, type and documentType are immutable and cannot be changed',
      Object.fromEntries(immutable.map((field) => [`body.${field}`, 'is immutable'])),
    );
  }
  const changes: ContactChanges = {};
  for (const [field, column] of Object.entries(CONTACT_COLUMNS)) {
    const value = input[field as keyof typeof CONTACT_COLUMNS];
    if (value !== undefined) changes[column] = value;
  }
  if (Object.keys(changes).length === 0) {
    throw new AppError('VALIDATION_ERROR', 'At least one field must be provided', { body: 'must have at least one field' });
  }
  return changes;
}

export async function updateReceiver(
  deps: { db: Db; clock: Clock; repo: ReceiversRepo; personalData: Pick<PersonalData, 'seal'> },
  merchantId: string,
  id: string,
  input: Static<typeof UpdateReceiverBody>,
  by: AuditActor,
): Promise<ReceiverRow> {
  const changes = contactChanges(input);
  const { db, clock, repo } = deps;
  if (changes.name === undefined) {
    const row = await repo.update(db, id, merchantId, changes, clock.now());
    if (!row) throw notFound('Receiver');
    return row;
  }
  return inTransaction(db, async (trx) => {
    const current = await repo.find(trx, id, merchantId, { forUpdate: true });
    if (!current) throw notFound('Receiver');
    const backToReview = current.kyc_status === 'APPROVED' && changes.name !== current.name;
    const row = await repo.update(trx, id, merchantId, { ...changes, ...(backToReview ? { kyc_status: 'UNDER_REVIEW' as const } : {}) }, clock.now());
    if (!row) throw notFound('Receiver');
    if (backToReview) {
      const details = { merchantId, from: 'APPROVED', to: 'UNDER_REVIEW', previousName: current.name, name: changes.name };
      await recordAudit(trx, by, { action: RENAME_ACTION, targetType: 'receiver', targetId: id, details: sealAuditDetails(deps.personalData, RENAME_ACTION, details) });
    }
    return row;
  });
}
