/**
 * Personal data in the outbox's payloads (issue 38, docs/decisions/0035-event-payloads-sealed-value-by-value.md):
 * a PAYOUT's events name its PIX key (a CPF, an email or a phone), a receiver's KYC events its
 * name and email. The outbox (outbox.ts) seals those values on write, each inside the JSON, so
 * the value becomes a sealed string (`pd<version>:v1:…`, as orders' columns hold) and every other
 * key stays queryable (`payload ->> 'orderId'`, `->> 'status'`). Every reader that shows a payload
 * (the delivery engine's body, the delivery log, a redelivery) opens it with `openEventPayload`,
 * so merchants receive the same body, signed the same, as before.
 *
 * The keys are the same in every event that carries them (the payloads are flat), so one map by
 * key: an event gaining a personal field adds its key here, and `recordEvent` refuses a payload
 * with one of them unless it was given the means to seal it.
 */
import type { PersonalData, PersonalDataKind } from '../lib/personal-data.ts';
import type { SealedJsonValues } from './personal-data-rotation.ts';

/** Payload keys holding personal data, by the kind they are sealed as (their AAD). */
export const EVENT_PERSONAL_FIELDS = {
  pixKey: 'account',
  name: 'name',
  email: 'email',
} as const satisfies Record<string, PersonalDataKind>;

type Payload = Record<string, unknown>;

/** Whether the payload holds a value to seal (a string under one of the keys). */
export const holdsPersonalData = (payload: Payload) => Object.keys(EVENT_PERSONAL_FIELDS).some((key) => typeof payload[key] === 'string');

function each(payload: Payload, apply: (kind: PersonalDataKind, value: string) => string): Payload {
  let out: Payload | undefined;
  for (const [key, kind] of Object.entries(EVENT_PERSONAL_FIELDS)) {
    const value = payload[key];
    if (typeof value !== 'string') continue;
    // Assigning an existing key keeps its place: the body's key order does not change.
    out ??= { ...payload };
    out[key] = apply(kind, value);
  }
  return out ?? payload;
}

/** The payload with its personal values sealed under the current KEK version (what the outbox stores). */
export const sealEventPayload = (pd: Pick<PersonalData, 'seal'>, payload: Payload): Payload => each(payload, (kind, value) => pd.seal(kind, value));

/**
 * The payload with its personal values in clear, as it was recorded (what every reader shows and
 * sends). A value from before the sealing (clear) stays as it is; a payload without them is
 * returned as it is, no copy.
 */
export const openEventPayload = (pd: Pick<PersonalData, 'open'>, payload: Payload): Payload => each(payload, (kind, value) => pd.open(kind, value));

/** The events table for the sealing pass (src/platform/personal-data-rotation.ts): values inside `payload`. */
export const EVENTS_SEALED = { name: 'events', table: 'events', json: { column: 'payload', keys: EVENT_PERSONAL_FIELDS } } as const satisfies SealedJsonValues;
