/**
 * A calendar day in São Paulo, the service's business time zone, as the instants an API filter
 * takes. São Paulo has kept UTC-3 all year since 2019 (no daylight saving), so a day there is
 * [00:00-03:00, next day's 00:00-03:00). Every date filter of both apps goes through here.
 */
const SAO_PAULO_OFFSET = '-03:00';
const DAY_MS = 86_400_000;

/** `2026-12-05` → the instant that day begins in São Paulo (ISO 8601, UTC). */
export function saoPauloDayStart(day: string): string {
  return new Date(`${day}T00:00:00${SAO_PAULO_OFFSET}`).toISOString();
}

/** `2026-12-05` → the instant the next day begins: an exclusive upper bound. */
export function saoPauloDayEndExclusive(day: string): string {
  return new Date(new Date(`${day}T00:00:00${SAO_PAULO_OFFSET}`).getTime() + DAY_MS).toISOString();
}

/** `2026-12-05` → the last millisecond of that day: for the API filters whose upper bound is inclusive. */
export function saoPauloDayEndInclusive(day: string): string {
  return new Date(new Date(`${day}T00:00:00${SAO_PAULO_OFFSET}`).getTime() + DAY_MS - 1).toISOString();
}

/** Today's date in São Paulo as `YYYY-MM-DD` (the value a date input holds). */
export function saoPauloToday(now: Date = new Date()): string {
  return new Date(now.getTime() - 3 * 3_600_000).toISOString().slice(0, 10);
}
