/**
 * Calendar facts in America/Sao_Paulo (DOMAIN.md: UTC−3, no daylight saving since 2019; read
 * through Intl so a future rule change comes with the platform's time zone data).
 */
const parts = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'America/Sao_Paulo',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

type Fields = { year: string; month: string; day: string; hour: number; minute: number };

/**
 * The last minute asked about and its fields: every field here is fixed within a UTC minute (time
 * zone offsets are whole minutes), and formatToParts cost 2.5 % of POST /payin's CPU when called
 * on every request (bench/README.md).
 */
let cached: { minute: number; fields: Fields } | undefined;

function fields(at: Date): Fields {
  const minute = Math.floor(at.getTime() / 60_000);
  if (cached?.minute === minute) return cached.fields;
  const map = Object.fromEntries(parts.formatToParts(at).map((p) => [p.type, p.value]));
  const computed = { year: map.year!, month: map.month!, day: map.day!, hour: Number(map.hour), minute: Number(map.minute) };
  cached = { minute, fields: computed };
  return computed;
}

/** The São Paulo calendar day of an instant, 'YYYY-MM-DD'. */
export function saoPauloDay(at: Date): string {
  const { year, month, day } = fields(at);
  return `${year}-${month}-${day}`;
}

/** Minutes since São Paulo midnight. */
export function saoPauloMinuteOfDay(at: Date): number {
  const { hour, minute } = fields(at);
  return hour * 60 + minute;
}

/** The first day of the calendar month of a São Paulo day ('YYYY-MM-DD'): the key of monthly volumes. */
export function saoPauloMonthOf(day: string): string {
  return `${day.slice(0, 7)}-01`;
}

/** "HH:MM" → minutes since midnight. */
export function parseClockTime(text: string): number {
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(text);
  if (!match) throw new RangeError(`not a HH:MM time: ${text}`);
  return Number(match[1]) * 60 + Number(match[2]);
}

/** Whether an instant falls in a daily window [start, end) in São Paulo time; windows may wrap midnight. */
export function inSaoPauloWindow(at: Date, window: { startMinute: number; endMinute: number }): boolean {
  const minute = saoPauloMinuteOfDay(at);
  return window.startMinute <= window.endMinute
    ? minute >= window.startMinute && minute < window.endMinute
    : minute >= window.startMinute || minute < window.endMinute;
}

/** The latest instant at or before `at` whose São Paulo time of day is `minuteOfDay` (minute precision). */
export function latestSaoPauloTimeOfDay(at: Date, minuteOfDay: number): Date {
  const wholeMinute = new Date(Math.floor(at.getTime() / 60_000) * 60_000);
  const minutesSince = (saoPauloMinuteOfDay(wholeMinute) - minuteOfDay + 1440) % 1440;
  return new Date(wholeMinute.getTime() - minutesSince * 60_000);
}

/** São Paulo midnight starting a calendar day, as an instant: the day read as UTC, less the zone's offset then. */
function saoPauloMidnight(year: number, month: number, day: number): Date {
  const asUtc = Date.UTC(year, month - 1, day);
  // The zone's offset at that moment (whole minutes): the São Paulo wall clock read back as UTC, minus the instant.
  const probe = new Date(asUtc + 3 * 3_600_000);
  const f = fields(probe);
  const wall = Date.UTC(Number(f.year), Number(f.month) - 1, Number(f.day), f.hour, f.minute);
  return new Date(asUtc - (wall - probe.getTime()));
}

/**
 * The instants a São Paulo calendar month ('YYYY-MM') spans: [from, to), from the first day's
 * midnight to the next month's. Undefined for anything that is not such a month.
 */
export function saoPauloMonthRange(month: string): { from: Date; to: Date } | undefined {
  const match = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(month);
  if (!match) return undefined;
  const year = Number(match[1]);
  const number = Number(match[2]);
  return { from: saoPauloMidnight(year, number, 1), to: number === 12 ? saoPauloMidnight(year + 1, 1, 1) : saoPauloMidnight(year, number + 1, 1) };
}
