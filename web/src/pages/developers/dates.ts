/**
 * The `<input type="datetime-local">` of the browser's own clock: its value is local wall time
 * without a zone; the API wants RFC 3339. Both directions go through the browser's Date.
 */
const pad = (n: number) => String(n).padStart(2, '0');

/** A Date as the input's value (`2026-11-26T07:35`), in the browser's time zone. */
export function toLocalInput(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The input's value as an RFC 3339 instant, or undefined when empty or invalid. */
export function fromLocalInput(value: string): string | undefined {
  if (!value) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}
