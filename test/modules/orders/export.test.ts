/**
 * GET /orders' amount filters and GET /orders/export: the same filters, CSV as RFC 4180 writes
 * it (parsed back here), formula cells neutralised, pages streamed, the cap. The export reads
 * ORDER_EXPORT_PAGE_SIZE=2 rows a statement here, so any file of more than two orders crosses
 * pages, and holds at most ORDER_EXPORT_MAX_ROWS=5.
 */
import { describe, expect, it } from 'vitest';
import type { TestMerchant } from '../../helpers/app.ts';
import { expectErrorBody } from '../../helpers/app.ts';
import { parseCsv } from '../../helpers/csv.ts';
import { ordersTest } from './helpers.ts';

describe('GET /orders amount filters and GET /orders/export', () => {
  const t = ordersTest(() => ({ ORDER_EXPORT_PAGE_SIZE: '2', ORDER_EXPORT_MAX_ROWS: '5', ORDER_LIST_CACHE_MS: '0' }));

  async function merchantWithPayins(amounts: number[], extra: (i: number) => Record<string, unknown> = () => ({})) {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const ids: string[] = [];
    for (const [i, amountBrl] of amounts.entries()) {
      ids.push((await t.payin(merchant, { receiverId: receiver.id, amountBrl, ...extra(i) })).id);
      t.clock.advance(1000);
    }
    return { merchant, receiver, ids };
  }

  const list = async (who: TestMerchant, query: string) => {
    const response = await t.call('GET', `/orders?${query}`, who);
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };

  const exported = async (who: TestMerchant, query = '') => {
    const response = await t.call('GET', `/orders/export${query ? `?${query}` : ''}`, who);
    expect(response.statusCode, response.body).toBe(200);
    const [header, ...rows] = parseCsv(response.body);
    return { response, header: header!, rows: rows.map((row) => Object.fromEntries(header!.map((name, i) => [name, row[i]!]))) };
  };

  it('amountBrlMin and amountBrlMax bound amountBrl inclusively, exactly as decimals, with an exact total', async () => {
    const { merchant, ids } = await merchantWithPayins([10, 20.5, 20.51, 30]);
    const amounts = (page: { data: Array<{ amountBrl: number }> }) => page.data.map((order) => order.amountBrl);
    expect(amounts(await list(merchant, 'amountBrlMin=20.5'))).toEqual([30, 20.51, 20.5]);
    expect((await list(merchant, 'amountBrlMin=20.5')).total).toBe(3);
    expect(amounts(await list(merchant, 'amountBrlMax=20.50'))).toEqual([20.5, 10]);
    expect(amounts(await list(merchant, 'amountBrlMin=20.5&amountBrlMax=20.5'))).toEqual([20.5]);
    // With keyset paging too: the page after 30 holds the rest of the range.
    const after = await list(merchant, `amountBrlMin=20.5&limit=1&startingAfter=${ids[3]}`);
    expect(amounts(after)).toEqual([20.51]);
    expect(after).toMatchObject({ total: 3, hasMore: true });
  });

  it('refuses amounts that are not plain decimal text with at most 2 decimals, and a minimum above the maximum', async () => {
    const merchant = await t.merchant();
    for (const bad of ['1e3', '-1', '10.001', 'abc', '10.']) {
      expectErrorBody(await t.call('GET', `/orders?amountBrlMin=${encodeURIComponent(bad)}`, merchant), 400, 'VALIDATION_ERROR');
    }
    const refused = await t.call('GET', '/orders?amountBrlMin=20&amountBrlMax=10', merchant);
    expectErrorBody(refused, 400, 'VALIDATION_ERROR');
    expect(refused.json().details).toHaveProperty(['querystring.amountBrlMax']);
    expectErrorBody(await t.call('GET', '/orders/export?amountBrlMin=20&amountBrlMax=10', merchant), 400, 'VALIDATION_ERROR');
    expectErrorBody(await t.call('GET', '/orders/export?limit=10', merchant), 400, 'VALIDATION_ERROR');
  });

  it('answers CSV with the documented columns, quotes what RFC 4180 quotes and neutralises formulas', async () => {
    const tricky = ['=HYPERLINK("http://evil.example","click")', 'a,b "c"\nd', '+1', '-2', '@SUM(A1)', 'plain'];
    const { merchant, ids } = await merchantWithPayins([11, 12, 13, 14, 15], (i) => ({ externalId: tricky[i] }));
    const { response, header, rows } = await exported(merchant);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="orders-2026-11-23.csv"');
    expect(response.headers['x-export-truncated']).toBe('false');
    expect(header).toEqual([
      'id', 'externalId', 'type', 'status', 'receiverId', 'chain', 'token', 'amountBrl', 'amountToken', 'exchangeRate', 'netAmountBrl',
      'platformFeeBrl', 'merchantFeeBrl', 'createdAt', 'completedAt', 'failureReason', 'markupBrl',
    ]);
    // Newest first, across three pages of two.
    expect(rows.map((row) => row.id)).toEqual([...ids].reverse());
    expect(rows.map((row) => row.externalId)).toEqual([`'@SUM(A1)`, `'-2`, `'+1`, 'a,b "c"\nd', `'=HYPERLINK("http://evil.example","click")`].map(String));
    expect(response.body).toContain('"a,b ""c""\nd"');
    const order = (await t.call('GET', `/orders/${ids[0]}`, merchant)).json();
    expect(rows.at(-1)).toMatchObject({
      type: 'PAYIN',
      status: 'AWAITING_PAYMENT',
      receiverId: order.receiverId,
      amountBrl: '11',
      amountToken: String(order.amountToken),
      netAmountBrl: String(order.netAmountBrl),
      platformFeeBrl: String(order.platformFeeAmountBrl),
      createdAt: order.createdAt,
      completedAt: '',
      failureReason: '',
      markupBrl: '0',
    });
  });

  it('has the partner markup in its own column, the fee columns as without it', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const plain = (await t.payin(merchant, { receiverId: receiver.id, amountBrl: 100 })).id;
    t.clock.advance(1000);
    expect((await t.call('PUT', '/markups/PAYIN', merchant, { bps: 125, flatBrl: '0.30', capBrl: null })).statusCode).toBe(200);
    const marked = await t.payin(merchant, { receiverId: receiver.id, amountBrl: 100 });
    const { rows } = await exported(merchant);
    const byId = new Map(rows.map((row) => [row.id, row]));
    // 1.25 % of 100.00 plus 0.30; the order says the same.
    expect(marked.markup).toMatchObject({ amountBrl: 1.55 });
    expect(byId.get(marked.id)).toMatchObject({ markupBrl: '1.55', platformFeeBrl: byId.get(plain)!.platformFeeBrl, merchantFeeBrl: byId.get(plain)!.merchantFeeBrl });
    expect(byId.get(plain)!.markupBrl).toBe('0');
  });

  it('takes the listing filters, and another merchant exports only its own orders', async () => {
    const { merchant, ids } = await merchantWithPayins([10, 20, 30]);
    expect((await exported(merchant, 'amountBrlMin=15&amountBrlMax=25')).rows.map((row) => row.id)).toEqual([ids[1]]);
    expect((await exported(merchant, 'status=COMPLETED')).rows).toEqual([]);
    expect((await exported(merchant, 'status=PENDING')).rows).toEqual([]);
    const other = await t.merchant('Outra Loja');
    const { header, rows } = await exported(other);
    expect(header[0]).toBe('id');
    expect(rows).toEqual([]);
  });

  it('stops at ORDER_EXPORT_MAX_ROWS, the newest, and says the file is truncated', async () => {
    const { merchant, ids } = await merchantWithPayins([10, 11, 12, 13, 14, 15, 16]);
    const { response, rows } = await exported(merchant);
    expect(response.headers['x-export-truncated']).toBe('true');
    expect(rows.map((row) => row.id)).toEqual([...ids].reverse().slice(0, 5));
    // Exactly the cap is not truncated.
    const exact = await exported(merchant, `createdFrom=${encodeURIComponent((await t.call('GET', `/orders/${ids[2]}`, merchant)).json().createdAt)}`);
    expect(exact.rows).toHaveLength(5);
    expect(exact.response.headers['x-export-truncated']).toBe('false');
  });
});
