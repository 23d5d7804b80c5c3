/** The approvals list's search parameters (no React: routes.tsx's validateSearch reads them on the first load). */
import type { components } from '../../../api/schema.ts';

type ApprovalStatus = components['schemas']['Approval']['status'];
const STATUSES: readonly ApprovalStatus[] = ['PENDING', 'APPROVED', 'REJECTED'];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface ApprovalsSearch {
  status?: ApprovalStatus | 'ALL';
  cursor?: string;
}

/** validateSearch of /ops/approvals: no status is PENDING (the queue to decide). */
export function approvalsSearch(search: Record<string, unknown>): ApprovalsSearch {
  const status = search.status === 'ALL' ? 'ALL' : STATUSES.find((value) => value === search.status && value !== 'PENDING');
  const cursor = typeof search.cursor === 'string' && UUID.test(search.cursor) ? search.cursor : undefined;
  return { ...(status ? { status } : {}), ...(cursor ? { cursor } : {}) };
}

