/**
 * MED claims as data, for both apps (the merchant's /app/disputes and the back office's
 * /app/ops/disputes): the API's types, the statuses in the filters' order, the lists' search
 * parameters (`?status=&page=`, read by routes.tsx's validateSearch on the first load, so no React
 * here), how near a defence deadline is, and which evidence addresses may become links.
 */
import type { components } from '../api/schema.ts';

export type Dispute = components['schemas']['Dispute'];
export type DisputeStatus = Dispute['status'];
export type DisputeOutcome = NonNullable<Dispute['outcome']>;

/** In the filter's order: OPEN (a defence is still possible) first, then the claim's life. */
export const DISPUTE_STATUSES: readonly DisputeStatus[] = ['OPEN', 'DEFENDED', 'ACCEPTED', 'REJECTED', 'CANCELLED'];

export type DisputesSearch = {
  /** None: every status. */
  status?: DisputeStatus;
  /** 1-based; none is the first page. */
  page?: number;
};

/** validateSearch of both claim lists: a malformed value is dropped, never an error. */
export function disputesSearch(search: Record<string, unknown>): DisputesSearch {
  const status = DISPUTE_STATUSES.find((value) => value === search.status);
  const page = Number(search.page);
  return { ...(status ? { status } : {}), ...(Number.isInteger(page) && page > 1 && page <= 1_000_000 ? { page } : {}) };
}

const HOUR_MS = 3_600_000;

/** How close an OPEN claim's defence deadline is at `now`: PASSED, SOON (within 24 h) or null (far, or not OPEN: no defence is taken any more). */
export function deadlineUrgency(dispute: Pick<Dispute, 'status' | 'defenseDeadline'>, now: number): 'PASSED' | 'SOON' | null {
  if (dispute.status !== 'OPEN') return null;
  const left = new Date(dispute.defenseDeadline).getTime() - now;
  if (left <= 0) return 'PASSED';
  return left <= 24 * HOUR_MS ? 'SOON' : null;
}

/** Only http(s) evidence addresses become links: anything else (javascript:, data:) is shown as text. */
export function safeHttpUrl(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
}
