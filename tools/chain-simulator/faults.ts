/**
 * Fault switches, set by flags at start or `POST /admin/faults` (and the programmatic
 * `setFaults`): sent transactions that never land, 429/503 answers, a node that never answers,
 * finality that stops advancing, a websocket that drops its connections and refuses new ones. A count is used up by the requests it hits; a duration runs
 * from when it is set.
 */

export interface FaultSettings {
  /** The next N sendTransaction calls answer a signature, but the transaction never lands. */
  dropNext?: number;
  /** Answer the next `count` RPC requests, or every request for `durationMs`, with this status. */
  http?: { status: 429 | 503 | number; count?: number; durationMs?: number } | null;
  /** Never answer RPC requests arriving in the next `hangMs` (the client's deadline decides). */
  hangMs?: number;
  /** Finality stops advancing for this long: nothing new becomes `finalized`. */
  finalityDelayMs?: number;
  /** Every websocket connection is cut now, and new ones refused (HTTP 503 to the upgrade) for this long. */
  websocketDownMs?: number;
  /** Slots between a transaction's slot and `confirmed` / `finalized` (the clock's settings). */
  confirmedLag?: number;
  finalizedLag?: number;
  /** The micro-lamports per compute unit getRecentPrioritizationFees reports. */
  priorityFee?: number;
}

export interface Faults {
  dropNext: number;
  http: { status: number; count: number; until: number } | null;
  hangUntil: number;
  finalityStalledUntil: number;
  websocketDownUntil: number;
}

export const noFaults = (): Faults => ({ dropNext: 0, http: null, hangUntil: 0, finalityStalledUntil: 0, websocketDownUntil: 0 });

const count = (value: unknown, what: string): number => {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw new Error(`${what} must be a whole number ≥ 0`);
  return value;
};

const KNOWN = new Set(['dropNext', 'http', 'hangMs', 'finalityDelayMs', 'websocketDownMs', 'confirmedLag', 'finalizedLag', 'priorityFee']);

/** Checks an admin body (thrown message → 400) and applies the fault part; the clock part is the caller's. */
export function applyFaults(current: Faults, settings: FaultSettings, now = Date.now()): void {
  // A misspelt switch would otherwise be a test that silently injects nothing.
  const unknown = Object.keys(settings).filter((key) => !KNOWN.has(key));
  if (unknown.length) throw new Error(`unknown fault settings: ${unknown.join(', ')}`);
  // All or nothing: a bad field leaves every switch as it was.
  const faults: Faults = { ...current, http: current.http ? { ...current.http } : null };
  if (settings.dropNext !== undefined) faults.dropNext = count(settings.dropNext, 'dropNext');
  if (settings.http !== undefined) {
    if (settings.http === null) faults.http = null;
    else {
      const status = count(settings.http.status, 'http.status');
      if (status < 400 || status > 599) throw new Error('http.status must be an HTTP error status');
      const times = settings.http.count === undefined ? 0 : count(settings.http.count, 'http.count');
      const durationMs = settings.http.durationMs === undefined ? 0 : count(settings.http.durationMs, 'http.durationMs');
      if (times === 0 && durationMs === 0) throw new Error('http needs count or durationMs');
      faults.http = { status, count: times, until: durationMs > 0 ? now + durationMs : 0 };
    }
  }
  if (settings.hangMs !== undefined) faults.hangUntil = now + count(settings.hangMs, 'hangMs');
  if (settings.finalityDelayMs !== undefined) faults.finalityStalledUntil = now + count(settings.finalityDelayMs, 'finalityDelayMs');
  if (settings.websocketDownMs !== undefined) faults.websocketDownUntil = now + count(settings.websocketDownMs, 'websocketDownMs');
  if (settings.confirmedLag !== undefined) count(settings.confirmedLag, 'confirmedLag');
  if (settings.finalizedLag !== undefined) count(settings.finalizedLag, 'finalizedLag');
  if (settings.priorityFee !== undefined) count(settings.priorityFee, 'priorityFee');
  Object.assign(current, faults);
}

/** The status an RPC request is answered with instead of its result, if a fault says so. */
export function takeHttpFault(faults: Faults, now = Date.now()): number | undefined {
  const fault = faults.http;
  if (!fault) return undefined;
  if (fault.until > now) return fault.status;
  if (fault.count > 0) {
    fault.count--;
    if (fault.count === 0 && fault.until <= now) faults.http = null;
    return fault.status;
  }
  faults.http = null;
  return undefined;
}

/** What the admin state shows: remaining counts and durations. */
export function describeFaults(faults: Faults, now = Date.now()) {
  return {
    dropNext: faults.dropNext,
    http: faults.http ? { status: faults.http.status, count: faults.http.count, remainingMs: Math.max(0, faults.http.until - now) } : null,
    hangRemainingMs: Math.max(0, faults.hangUntil - now),
    finalityStalledRemainingMs: Math.max(0, faults.finalityStalledUntil - now),
    websocketDownRemainingMs: Math.max(0, faults.websocketDownUntil - now),
  };
}
