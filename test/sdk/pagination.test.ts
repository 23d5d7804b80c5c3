/**
 * Pagination iterators everywhere lists exist (issue 41): every list operation of the merchant
 * API in docs/openapi.json (a GET answering a `...Page` schema, or taking paging parameters) has
 * an iterator in the SDK's resources. The lists are read from the document, so a new list
 * operation fails this test until it gets its iterator here and in sdk/src/resources.ts.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createExchangeClient, type ExchangeClient, Paginated } from '../../sdk/src/index.ts';

interface Operation {
  operationId: string;
  parameters?: Array<{ name?: string; $ref?: string }>;
  security?: Array<Record<string, string[]>>;
  responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }>;
}

const document = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../docs/openapi.json'), 'utf8')) as { paths: Record<string, Record<string, Operation>> };
const PAGING = new Set(['page', 'limit', 'pageSize', 'cursor', 'startingAfter', 'endingBefore']);
/** Security schemes only operators have: their operations are not the merchant API. */
const OPERATOR_ONLY = new Set(['OperatorSession', 'AdminToken']);

/** The merchant API's list operations, by operationId: their path. */
function merchantLists(): Map<string, string> {
  const lists = new Map<string, string>();
  for (const [route, operations] of Object.entries(document.paths)) {
    const op = operations.get;
    if (!op || route.startsWith('/admin/')) continue;
    if (op.security?.some((scheme) => Object.keys(scheme).some((name) => OPERATOR_ONLY.has(name)))) continue;
    const schema = op.responses['200']?.content?.['application/json']?.schema?.$ref ?? '';
    const paged = (op.parameters ?? []).some((param) => PAGING.has(param.name ?? param.$ref?.split('/').pop() ?? ''));
    if (schema.endsWith('Page') || paged) lists.set(op.operationId, route);
  }
  return lists;
}

/** The path parameter of the lists under one resource (`{id}` in the route). */
const A_BATCH = '0190a0b0-0000-7000-8000-000000000001';

/** Each list operation's iterator. */
const ITERATORS: Record<string, (client: ExchangeClient) => Paginated<unknown>> = {
  listAuditLog: (client) => client.auditLog.list(),
  listReceivers: (client) => client.receivers.list(),
  listOrders: (client) => client.orders.list(),
  listSettlements: (client) => client.ledger.settlements(),
  listLedgerEntries: (client) => client.ledger.entries(),
  listDisputes: (client) => client.disputes.list(),
  listPayoutBatches: (client) => client.payoutBatches.list(),
  listPayoutBatchItems: (client) => client.payoutBatches.items(A_BATCH),
  listWebhookDeliveries: (client) => client.webhooks.deliveries.list(),
};

/** An empty last page in every list's shape (numbered, keyset, cursor, ledger). */
const EMPTY_PAGE = { data: [], settlements: [], entries: [], total: 0, page: 1, limit: 100, hasMore: false, nextCursor: null, pagination: { page: 1, totalPages: 0 } };

describe('SDK pagination: an iterator for every list of the merchant API', () => {
  const lists = merchantLists();

  it('finds the lists in the document, and each has an iterator', () => {
    expect(lists.size).toBeGreaterThanOrEqual(7);
    expect([...lists.keys()].sort()).toEqual(Object.keys(ITERATORS).sort());
  });

  it.each([...lists])('%s (GET %s) is iterated by its own operation', async (operationId, route) => {
    const seen: URL[] = [];
    const client = createExchangeClient({
      baseUrl: 'http://127.0.0.1:9/api/v1',
      auth: { token: 'test' },
      fetch: async (input, init) => {
        const request = new Request(input, init);
        seen.push(new URL(request.url));
        expect(request.method).toBe('GET');
        return Response.json(EMPTY_PAGE);
      },
    });
    const list = ITERATORS[operationId]!(client);
    expect(list).toBeInstanceOf(Paginated);
    expect(await list.toArray()).toEqual([]);
    expect(seen.map((url) => url.pathname)).toEqual([`/api/v1${route.replace('{id}', A_BATCH)}`]);
  });

  it('follows the audit log\'s cursor until it is null', async () => {
    const cursors: Array<string | null> = [];
    const pages: Record<string, { data: Array<{ id: string }>; nextCursor: string | null }> = {
      first: { data: [{ id: 'a' }, { id: 'b' }], nextCursor: 'c1' },
      c1: { data: [{ id: 'c' }], nextCursor: null },
    };
    const client = createExchangeClient({
      baseUrl: 'http://127.0.0.1:9/api/v1',
      auth: { token: 'test' },
      fetch: async (input, init) => {
        const cursor = new URL(new Request(input, init).url).searchParams.get('cursor');
        cursors.push(cursor);
        return Response.json(pages[cursor ?? 'first']);
      },
    });
    expect((await client.auditLog.list({ action: 'credential.issue' }).toArray()).map((entry) => entry.id)).toEqual(['a', 'b', 'c']);
    expect(cursors).toEqual([null, 'c1']);
  });
});
