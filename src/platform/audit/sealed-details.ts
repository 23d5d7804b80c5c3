/**
 * Personal data in the audit log (issue 38, docs/decisions/0026): an entry that names a customer
 * holds the values sealed inside its details, as the outbox's events do (0035). One entry does
 * today: `receiver.kyc_review_on_rename`, the receiver's previous and new names, so a KYC reviewer
 * sees what changed. Its details are sealed as they are recorded and opened by every reader
 * (modules/audit/log.ts), so the log answers as before; the log stays append-only, except for the
 * sealing pass rewriting these details (migration 0057).
 *
 * By action, not by key alone: other entries' top-level `name` is a merchant's or a service
 * account's, not a person's, and stays clear.
 */
import type { PersonalData, PersonalDataKind } from '../../lib/personal-data.ts';
import type { SealedJsonValues } from '../personal-data-rotation.ts';

export const RENAME_ACTION = 'receiver.kyc_review_on_rename';

const RENAME_FIELDS = { previousName: 'name', name: 'name' } as const satisfies Record<string, PersonalDataKind>;

type Details = Record<string, unknown>;

function each(action: string, details: Details, apply: (kind: PersonalDataKind, value: string) => string): Details {
  if (action !== RENAME_ACTION) return details;
  const out: Details = { ...details };
  for (const [key, kind] of Object.entries(RENAME_FIELDS)) {
    const value = details[key];
    if (typeof value === 'string') out[key] = apply(kind, value);
  }
  return out;
}

/** The details as the log stores them: the action's personal values sealed under the current KEK version. */
export const sealAuditDetails = (pd: Pick<PersonalData, 'seal'>, action: string, details: Details): Details => each(action, details, (kind, value) => pd.seal(kind, value));

/** The details as they were recorded; a value from before the sealing (clear) stays as it is. */
export const openAuditDetails = (pd: Pick<PersonalData, 'open'>, action: string, details: Details): Details => each(action, details, (kind, value) => pd.open(kind, value));

/** The audit log for the sealing pass (src/platform/personal-data-rotation.ts): the rename entries' names. */
export const AUDIT_LOG_SEALED = {
  name: 'auditLog',
  table: 'admin_audit_log',
  json: { column: 'details', keys: RENAME_FIELDS },
  rows: { column: 'action', equals: RENAME_ACTION },
  appendOnly: true,
} as const satisfies SealedJsonValues;
