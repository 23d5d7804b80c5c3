/** Small formatting shared by the back-office pages. */

/** A waiting time as days, hours and minutes ("2 d 4 h", "3 h 12 min", "45 min", "< 1 min"): the same units in both languages. */
export function formatWaiting(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  if (days > 0) return `${days} d ${hours} h`;
  if (hours > 0) return `${hours} h ${minutes % 60} min`;
  return minutes > 0 ? `${minutes} min` : '< 1 min';
}

/** Query parameters without the empty ones (an empty filter means "any"). */
export function present<T extends Record<string, string | undefined>>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined && value !== '')) as Partial<T>;
}
