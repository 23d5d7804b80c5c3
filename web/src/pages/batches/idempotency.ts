/**
 * An Idempotency-Key for one press of a button: a double click or a retry of the same press
 * replays the first answer; each new press is a new key (the batch routes are idempotent: a
 * state change repeated with a new key answers 409 on the batch's new status, which is shown).
 */
export function idempotencyKey(what: string): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `dashboard-batch-${what}-${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}
