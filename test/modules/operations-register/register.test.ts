/**
 * The operations register (docs/architecture/operations-register.md): a month of orders driven
 * through the sandbox PSP and chain leaves exactly one row per confirmed movement, however often
 * the notifications arrive and the steps run; the table refuses UPDATE, DELETE and TRUNCATE; and
 * GET /admin/reports/operations answers the month as CSV with the documented columns and as JSON
 * lines, a bad month being 400.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { registerMovement, registerMovements } from '../../../src/modules/operations-register/record.ts';
import { REGISTER_COLUMNS } from '../../../src/modules/operations-register/formatters.ts';
import { expectErrorBody } from '../../helpers/app.ts';
import { csvObjects } from '../../helpers/csv.ts';
import { adminHeaders } from '../../helpers/factories.ts';
import { type Json, WALLET, ordersTest } from '../orders/helpers.ts';
import { documentedColumns, insertRow } from './helpers.ts';

const REPORT = '/api/v1/admin/reports/operations';

describe('operations register', () => {
  const t = ordersTest();
  const db = () => t.ctx.database.db;
  const report = (query: string) => t.ctx.app.inject({ method: 'GET', url: `${REPORT}?${query}`, headers: adminHeaders });
  // Names and documents are sealed at rest (src/lib/personal-data.ts): compared opened.
  const pd = () => t.ctx.app.services.personalData;
  const rowsOf = async (merchantId: string) =>
    (await db().selectFrom('operations_register').selectAll().where('merchant_id', '=', merchantId).orderBy('occurred_at').orderBy('id').execute()).map((row) => ({
      ...row,
      client_document: pd().open('document', row.client_document),
      client_name: pd().open('name', row.client_name),
      originator_name: pd().openNullable('name', row.originator_name),
      originator_document: pd().openNullable('document', row.originator_document),
      beneficiary_name: pd().openNullable('name', row.beneficiary_name),
      beneficiary_document: pd().openNullable('document', row.beneficiary_document),
      originator_account: pd().openNullable('account', row.originator_account),
      beneficiary_account: pd().openNullable('account', row.beneficiary_account),
    }));
  const byOrder = (rows: Array<{ order_id: string; movement: string }>) => {
    const map: Record<string, string[]> = {};
    for (const row of rows) (map[row.order_id] ??= []).push(row.movement);
    for (const list of Object.values(map)) list.sort();
    return map;
  };

  let merchantId: string;
  let orders: Record<string, Json[]>;

  it('holds one row per confirmed movement of a month of orders, none twice after re-delivered notifications and re-run steps', async () => {
    const merchant = await t.merchant('Loja Registro');
    merchantId = merchant.merchantId;
    orders = await t.everyEnding(merchant);
    const [completedPayin] = orders['PAYIN COMPLETED']!;
    const [refunded] = orders['PAYIN REFUNDED']!;
    const [completedPayout] = orders['PAYOUT COMPLETED']!;
    const failedPayouts = orders['PAYOUT FAILED']!;
    const expected = {
      [completedPayin!.id]: ['CHAIN_TRANSFER', 'PIX_IN'],
      [refunded!.id]: ['PIX_IN', 'PIX_REFUND'],
      [completedPayout!.id]: ['CHAIN_DEPOSIT', 'PIX_OUT'],
      // One refused at the receiving bank, one whose deposit was worth less than the minimum: the tokens arrived either way.
      ...Object.fromEntries(failedPayouts.map((order) => [order.id, ['CHAIN_DEPOSIT']])),
    };
    const first = await rowsOf(merchantId);
    expect(byOrder(first)).toEqual(expected);

    // Every outcome delivered again, and the worker and the sandbox banks run again.
    const stored = await db().selectFrom('orders').selectAll().where('merchant_id', '=', merchantId).execute();
    const notifications = t.ctx.app.services.orderNotifications;
    for (const order of stored) {
      if (order.pix_txid && order.pix_end_to_end_id) {
        await notifications.handlePixNotification({ kind: 'charge_paid', txid: order.pix_txid, endToEndId: order.pix_end_to_end_id, amountBrl: Number(order.amount_brl).toFixed(2), paidAt: t.clock.now() });
      }
      if (order.refund_id) await notifications.handlePixNotification({ kind: 'refund_settled', refundId: order.refund_id, endToEndId: order.pix_end_to_end_id!, status: 'DEVOLVIDO' });
      if (order.provider_transaction_id && order.status === 'COMPLETED') {
        await notifications.handlePixNotification({ kind: 'payout_settled', providerTransactionId: order.provider_transaction_id, status: 'CONFIRMED', endToEndId: order.pix_end_to_end_id! });
      }
      if (order.deposit_address && order.tx_hash) await notifications.handleChainDeposit({ depositAddress: order.deposit_address, token: order.token, amount: order.amount_token, txHash: order.tx_hash, blockTime: null });
    }
    await t.drive();
    // A transition applied twice would reach the register's statement twice: its key keeps one row.
    const payinRow = stored.find((order) => order.id === completedPayin!.id)!;
    await db().transaction().execute((trx) => registerMovement(trx, pd(), payinRow, { type: 'PIX_IN', amount: payinRow.amount_brl, txHash: payinRow.pix_end_to_end_id }, t.clock.now()));
    const again = await rowsOf(merchantId);
    expect(again.map((row) => row.id)).toEqual(first.map((row) => row.id));
  });

  it('stores every personal value sealed as it writes it, a wallet address too: the sealing pass finds nothing clear', async () => {
    const { rows } = await sql<{ movement: string; column: string }>`
      select movement, c.column from operations_register, lateral (values
        ('client_document', client_document), ('client_name', client_name), ('originator_name', originator_name),
        ('originator_document', originator_document), ('beneficiary_name', beneficiary_name), ('beneficiary_document', beneficiary_document),
        ('originator_account', originator_account), ('beneficiary_account', beneficiary_account)) as c("column", value)
      where merchant_id = ${merchantId}::uuid and c.value is not null and c.value !~ '^pd[0-9]+:'`.execute(db());
    expect(rows).toEqual([]);
    const accounts = await db().selectFrom('operations_register').select(['movement', 'beneficiary_account']).where('merchant_id', '=', merchantId).where('movement', 'in', ['CHAIN_TRANSFER', 'CHAIN_DEPOSIT']).execute();
    expect(accounts.length).toBeGreaterThan(0);
    for (const { beneficiary_account: account } of accounts) expect(pd().versionOf(account!)).toBe(pd().currentVersion);
  });

  it('records the client, the wallet, the parties and the references of each movement', async () => {
    const rows = await rowsOf(merchantId);
    const sealed = await db().selectFrom('receivers').select(['document_type', 'document', 'name']).where('merchant_id', '=', merchantId).executeTakeFirstOrThrow();
    const receiver = { ...sealed, document: pd().open('document', sealed.document), name: pd().open('name', sealed.name) };
    const client = { client_document_type: receiver.document_type, client_document: receiver.document, client_name: receiver.name };
    const asClient = (side: 'originator' | 'beneficiary') => ({ [`${side}_name`]: receiver.name, [`${side}_document_type`]: receiver.document_type, [`${side}_document`]: receiver.document });
    const of = async (key: string, movement: string) => {
      const stored = await db().selectFrom('orders').selectAll().where('id', '=', orders[key]![0]!.id).executeTakeFirstOrThrow();
      // The order's PIX key and recipient name are sealed at rest too (orders/sealed-columns.ts).
      const order = { ...stored, pix_key: pd().openNullable('account', stored.pix_key), recipient_name: pd().openNullable('name', stored.recipient_name) };
      return { order, row: rows.find((row) => row.order_id === order.id && row.movement === movement)! };
    };
    for (const row of rows) expect(row).toMatchObject({ ...client, merchant_id: merchantId });

    const pixIn = await of('PAYIN COMPLETED', 'PIX_IN');
    expect(pixIn.row).toMatchObject({ order_type: 'PAYIN', direction: 'IN', asset: 'BRL', chain: null, wallet_address: null, wallet_self_hosted: null, counterparty_type: 'PIX_PAYER' });
    // No payer reported on this branch's orders: the receiver stands in as the originator.
    expect(pixIn.row).toMatchObject({ ...asClient('originator'), ...asClient('beneficiary'), pix_end_to_end_id: pixIn.order.pix_end_to_end_id, psp_reference: pixIn.order.pix_txid, tx_signature: null });
    expect(Number(pixIn.row.quantity)).toBe(11);
    expect(Number(pixIn.row.value_brl)).toBe(11);

    const transfer = await of('PAYIN COMPLETED', 'CHAIN_TRANSFER');
    expect(transfer.row).toMatchObject({ direction: 'OUT', asset: 'USDC', chain: 'solana', wallet_address: WALLET, wallet_self_hosted: true, counterparty_type: 'SELF_HOSTED_WALLET' });
    expect(transfer.row).toMatchObject({ ...asClient('beneficiary'), beneficiary_account: WALLET, tx_signature: transfer.order.tx_hash, pix_end_to_end_id: null });
    expect(String(transfer.row.quantity)).toMatch(new RegExp(`^${Number(transfer.order.amount_token)}`));
    // Tokens are valued at the order's locked rate, to the centavo.
    expect(Number(transfer.row.value_brl)).toBeCloseTo(Number(transfer.order.amount_token) * Number(transfer.order.exchange_rate), 2);

    const refund = await of('PAYIN REFUNDED', 'PIX_REFUND');
    expect(refund.row).toMatchObject({ direction: 'OUT', asset: 'BRL', counterparty_type: 'PIX_PAYER', psp_reference: refund.order.refund_id, ...asClient('beneficiary') });
    expect(Number(refund.row.value_brl)).toBe(12);

    const deposit = await of('PAYOUT COMPLETED', 'CHAIN_DEPOSIT');
    expect(deposit.row).toMatchObject({ order_type: 'PAYOUT', direction: 'IN', asset: 'USDC', wallet_address: deposit.order.deposit_address, wallet_self_hosted: false, counterparty_type: 'PLATFORM_DEPOSIT_ADDRESS', tx_signature: deposit.order.tx_hash });
    const pixOut = await of('PAYOUT COMPLETED', 'PIX_OUT');
    expect(pixOut.row).toMatchObject({ direction: 'OUT', asset: 'BRL', counterparty_type: 'PIX_RECIPIENT', beneficiary_account: pixOut.order.pix_key, beneficiary_name: pixOut.order.recipient_name, psp_reference: pixOut.order.provider_transaction_id });
    expect(Number(pixOut.row.quantity)).toBe(Number(pixOut.order.net_amount_brl));
  });

  it('refuses UPDATE, DELETE and TRUNCATE', async () => {
    const [row] = await rowsOf(merchantId);
    await expect(db().updateTable('operations_register').set({ client_name: 'Outro' }).where('id', '=', row!.id).execute()).rejects.toThrow(/append-only/);
    await expect(db().deleteFrom('operations_register').where('id', '=', row!.id).execute()).rejects.toThrow(/append-only/);
    await expect(sql`truncate operations_register`.execute(db())).rejects.toThrow(/append-only/);
    expect((await rowsOf(merchantId)).map((r) => r.id)).toContain(row!.id);
  });

  it('exports the month as CSV with exactly the documented columns, and as JSON lines with the same rows', async () => {
    expect(documentedColumns()).toEqual([...REGISTER_COLUMNS]);
    const csv = await report('month=2026-11');
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe('attachment; filename="operations-2026-11.csv"');
    const { header, rows } = csvObjects(csv.body);
    expect(header).toEqual(documentedColumns());
    const mine = rows.filter((row) => row.merchantId === merchantId);
    const stored = await rowsOf(merchantId);
    expect(mine.map((row) => row.id)).toEqual(stored.map((row) => row.id));
    const transfer = mine.find((row) => row.movement === 'CHAIN_TRANSFER')!;
    expect(transfer).toMatchObject({ walletSelfHosted: 'true', counterpartyType: 'SELF_HOSTED_WALLET', pixEndToEndId: '', asset: 'USDC' });
    expect(mine.find((row) => row.movement === 'PIX_IN')).toMatchObject({ walletSelfHosted: '', quantity: '11', valueBrl: '11.00' });

    const jsonl = await report('month=2026-11&format=jsonl');
    expect(jsonl.statusCode).toBe(200);
    expect(jsonl.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    expect(jsonl.headers['content-disposition']).toBe('attachment; filename="operations-2026-11.jsonl"');
    expect(jsonl.body.endsWith('\n')).toBe(true);
    const lines = jsonl.body.slice(0, -1).split('\n').map((line) => JSON.parse(line) as Json);
    for (const line of lines) expect(Object.keys(line)).toEqual([...REGISTER_COLUMNS]);
    expect(lines.map((line) => line.id)).toEqual(rows.map((row) => row.id));
    expect(lines.find((line) => line.id === transfer.id)).toMatchObject({ walletSelfHosted: true, pixEndToEndId: null });
  });

  it('cuts months at São Paulo midnight, and guards text cells against formulas', async () => {
    // São Paulo is UTC−3: 02:30 UTC on 1 December is 23:30 on 30 November there; 03:00 UTC is December's first instant.
    const lastOfNovember = await insertRow(db(), '2026-12-01T02:30:00.000Z');
    const firstOfDecember = await insertRow(db(), '2026-12-01T03:00:00.000Z');
    const november = csvObjects((await report('month=2026-11')).body).rows.map((row) => row.id);
    const december = csvObjects((await report('month=2026-12')).body).rows;
    expect(november).toContain(lastOfNovember);
    expect(november).not.toContain(firstOfDecember);
    expect(december.map((row) => row.id)).toEqual([firstOfDecember]);
    expect(december[0]).toMatchObject({ clientName: 'Maria, "da" Silva', originatorName: "'=cmd", quantity: '100.5', valueBrl: '100.50' });
    const empty = await report('month=2025-01&format=jsonl');
    expect(empty.statusCode).toBe(200);
    expect(empty.body).toBe('');
  });

  it('writes several movements in one statement, each with its own parties: a managed wallet is custodial, a reported payer is the originator', async () => {
    const [refunded] = orders['PAYIN REFUNDED']!;
    const [failedPayout] = orders['PAYOUT FAILED']!;
    const order = async (id: string) => db().selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const managed = 'Custody1111111111111111111111111111111111111';
    await db().insertInto('managed_wallets').values({ id: crypto.randomUUID(), merchant_id: merchantId, receiver_id: null, address: managed, encrypted_private_key: 'x', key_version: 1 }).execute();
    const toManaged = { ...(await order(refunded!.id)), destination_wallet: managed };
    const payer = { payer_document_type: 'CPF', payer_document: pd().seal('document', '11144477735'), payer_name: pd().seal('name', 'Carlos Terceiro') };
    const paidByThirdParty = { ...(await order(failedPayout!.id)), ...payer };
    await db()
      .transaction()
      .execute((trx) =>
        registerMovements(
          trx,
          pd(),
          [
            { order: toManaged, movement: { type: 'CHAIN_TRANSFER', amount: toManaged.amount_token, txHash: 'sig-managed' } },
            { order: paidByThirdParty, movement: { type: 'PIX_IN', amount: '10.00', txHash: 'E-third' } },
          ],
          t.clock.now(),
        ),
      );
    const rows = await rowsOf(merchantId);
    const receiver = rows[0]!;
    expect(rows.find((row) => row.order_id === toManaged.id && row.movement === 'CHAIN_TRANSFER')).toMatchObject({
      wallet_address: managed,
      wallet_self_hosted: false,
      counterparty_type: 'CUSTODIAL_WALLET',
      beneficiary_account: managed,
      beneficiary_name: receiver.client_name,
      tx_signature: 'sig-managed',
    });
    expect(rows.find((row) => row.order_id === paidByThirdParty.id && row.movement === 'PIX_IN')).toMatchObject({
      counterparty_type: 'PIX_PAYER',
      originator_name: 'Carlos Terceiro',
      originator_document_type: 'CPF',
      originator_document: '11144477735',
      beneficiary_name: receiver.client_name,
      client_name: receiver.client_name,
      pix_end_to_end_id: 'E-third',
    });
  });

  it('answers a bad month or format with 400 VALIDATION_ERROR', async () => {
    for (const query of ['month=2026-13', 'month=2026-1', 'month=nov', 'month=2026-11-01', '', 'month=2026-11&format=xml']) {
      expectErrorBody(await report(query), 400, 'VALIDATION_ERROR');
    }
  });
});
