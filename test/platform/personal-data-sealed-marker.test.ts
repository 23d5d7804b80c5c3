/**
 * The sealing pass's marker (migration 0052, src/platform/personal-data-sealed-marker.ts): the
 * first start seals what is clear and sets the marker, the next start reads no table; a clear
 * value written into any sealed column, by whoever, voids it in the same transaction and the next
 * start seals that row; `rotate-kek`'s pass voids it, re-seals under the new version and sets it
 * again (a rerun changes nothing; a pass cut short leaves it void); and on PostgreSQL a clear write
 * racing the pass keeps the pass from setting it.
 */
import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { PERSONAL_DATA_TABLES, createKeyCustody } from '../../src/key-custody.ts';
import { resealAllPersonalData, sealClearPersonalData } from '../../src/platform/personal-data-sealed-marker.ts';
import type { SealedTable } from '../../src/platform/personal-data-rotation.ts';
import { testDriver } from '../helpers/database.ts';
import { ordersTest } from '../modules/orders/helpers.ts';
import { PASSWORD } from '../helpers/people.ts';

describe('the personal-data sealing marker', () => {
  const t = ordersTest();
  const db = () => t.ctx.database.db;
  const custody = (config = t.ctx.config) => createKeyCustody({ config, db: db(), clock: t.clock });
  const atStart = (config = t.ctx.config) => sealClearPersonalData(db(), custody(config).personalData, PERSONAL_DATA_TABLES);
  const marker = async () => (await sql<{ kek_version: number | null; clear_writes: string }>`select kek_version, clear_writes::text from personal_data_sealing`.execute(db())).rows[0]!;

  /** Writes `value` into one row's `column` as an older process or a hand-made statement would. */
  async function writeClear(spec: SealedTable, column: string, value: string | null) {
    // A table whose personal values sit only in some rows (the audit log's renames): one of those.
    const holding = 'json' in spec && spec.rows ? sql`where ${sql.ref(spec.rows.column)} = ${spec.rows.equals}` : sql``;
    // By its key (payout_batch_items: batch_id, line).
    const key = sql.join(('json' in spec ? undefined : spec.key)?.map(({ column }) => sql.ref(column)) ?? [sql.ref('id')]);
    const first = sql`(select ${key} from ${sql.table(spec.table)} ${holding} order by ${key} limit 1)`;
    const payload = 'json' in spec ? sql.ref(spec.json.column) : undefined;
    const update = payload
      ? sql`update ${sql.table(spec.table)} set ${payload} = ${payload} || jsonb_build_object(${column}::text, ${value}::text) where (${key}) = ${first}`
      : sql`update ${sql.table(spec.table)} set ${sql.ref(column)} = ${value} where (${key}) = ${first}`;
    if (!spec.appendOnly) return void (await update.execute(db()));
    await db()
      .transaction()
      .execute(async (trx) => {
        await sql`select set_config('app.personal_data_reseal', 'on', true)`.execute(trx);
        await update.execute(trx);
      });
  }

  it('the first start seals and sets the marker; the next start reads no table', async () => {
    // Every table with rows: receivers, a KYC submission, orders of each ending, their register rows.
    const merchant = await t.merchant();
    await t.everyEnding(merchant);
    const receiver = await t.pendingReceiver(merchant);
    const kyc = await t.call('POST', `/receivers/${receiver.id}/kyc`, merchant, { birthDate: '1990-05-17', motherName: 'Ana Mãe', documents: [{ type: 'ID_FRONT', reference: 's3://kyc/front.jpg' }] });
    expect(kyc.statusCode, kyc.body).toBe(200);
    // A rename of an approved receiver: the audit log's entry with both names.
    const renamed = await t.activeReceiver(merchant);
    expect((await t.call('PATCH', `/receivers/${renamed.id}`, merchant, { name: 'Joana Souza Lima' })).json().kycStatus).toBe('UNDER_REVIEW');
    // A merchant's settlement PIX key, asked for by an operator (sealed, as the service writes it).
    const operator = await t.ctx.app.services.operators.createWithPassword({ email: 'marker-keys@example.com', role: 'FINANCE', password: PASSWORD }, { actor: 'test' });
    await t.ctx.app.services.settlementPixKeys.request(merchant.merchantId, { pixKeyType: 'EMAIL', pixKey: 'financeiro@loja.example.com', holderDocument: '11222333000181' }, { actor: 'test', operatorId: operator.operator.id });
    // A payout batch with a PIX key and a recipient's name on its line (sealed on upload).
    const payee = await t.activeReceiver(merchant);
    const batch = await t.call('POST', '/payout-batches', merchant, { token: 'USDC', items: [{ receiverId: payee.id, amountCrypto: 3, pixKey: 'joana@example.com', pixKeyType: 'EMAIL', recipientName: 'Joana Souza' }] });
    expect(batch.statusCode, batch.body).toBe(201);
    // A standing address bound to the receiver's PIX key (its document) and name: sealed when made, answered clear.
    const standing = await t.call('POST', `/receivers/${payee.id}/standing-addresses`, merchant, { recipientName: 'Joana Souza' });
    expect(standing.statusCode, standing.body).toBe(201);
    expect(standing.json()).toMatchObject({ pixKey: payee.document, recipientName: 'Joana Souza' });
    const stored = await db().selectFrom('standing_deposit_addresses').select(['pix_key', 'recipient_name']).executeTakeFirstOrThrow();
    expect([stored.pix_key, stored.recipient_name].every((value) => /^pd[0-9]+:/.test(value))).toBe(true);
    for (const spec of PERSONAL_DATA_TABLES) expect(Number((await sql<{ n: string }>`select count(*) as n from ${sql.table(spec.table)}`.execute(db())).rows[0]!.n), spec.table).toBeGreaterThan(0);

    // The app's own start (on an empty database) set it: nothing was clear.
    expect(t.ctx.app.services.personalDataAtStart).toEqual({ scanned: true, sealed: { receivers: 0, kycSubmissions: 0, operationsRegister: 0, orders: 0, events: 0, auditLog: 0, settlementPixKeys: 0, payoutBatchItems: 0, standingAddresses: 0 }, marked: true });
    expect(await atStart()).toEqual({ scanned: false, sealed: {}, marked: true });
    const restarted = await t.ctx.buildApp();
    expect(restarted.services.personalDataAtStart).toEqual({ scanned: false, sealed: {}, marked: true });
  });

  it('a clear value written into any sealed column voids the marker at once, and the next start seals it', async () => {
    for (const spec of PERSONAL_DATA_TABLES) {
      const writes: Array<[string, string | null]> =
        'json' in spec
          ? Object.keys(spec.json.keys).map((key): [string, string] => [key, `clear ${key}`])
          : [...Object.keys(spec.columns).map((column): [string, string | null] => [column, `clear ${column}`]), ...Object.keys(spec.hashes ?? {}).map((column): [string, null] => [column, null])];
      for (const [column, value] of writes) {
        const before = await marker();
        expect(before.kek_version, `${spec.table}.${column}: marked before`).toBe(1);
        await writeClear(spec, column, value);
        const after = await marker();
        expect(after.kek_version, `${spec.table}.${column}: a clear write left the marker set`).toBeNull();
        expect(Number(after.clear_writes)).toBe(Number(before.clear_writes) + 1);
        const next = await atStart();
        expect(next, `${spec.table}.${column}`).toMatchObject({ scanned: true, marked: true, sealed: { [spec.name]: 1 } });
      }
    }
    expect(await atStart()).toEqual({ scanned: false, sealed: {}, marked: true });
  });

  it('rotate-kek voids the marker, re-seals under the new version and sets it; a rerun changes nothing; cut short it stays void', async () => {
    const oldKek = t.ctx.config.walletKek;
    const rotated = { ...t.ctx.config, walletKek: Buffer.alloc(32, 7).toString('base64'), walletKekVersion: 2, walletKekPrevious: { 1: oldKek } };
    const two = custody(rotated);
    // A start under the new version before the rotation scans once (the marker is version 1's).
    expect(await atStart(rotated)).toMatchObject({ scanned: true, marked: true });

    const first = await resealAllPersonalData(db(), two.personalData, two.personalDataTables);
    expect(first.marked).toBe(true);
    expect(first.resealed.receivers).toBeGreaterThan(0);
    // The batch's line, keyed (batch_id, line), re-sealed under version 2 like the rest.
    expect(first.resealed.payoutBatchItems).toBeGreaterThan(0);
    const line = await db().selectFrom('payout_batch_items').select(['pix_key', 'recipient_name']).where('pix_key', 'is not', null).executeTakeFirstOrThrow();
    expect([line.pix_key, line.recipient_name].map((value) => value!.slice(0, 4))).toEqual(['pd2:', 'pd2:']);
    // (The test above wrote these clear, and the start sealed them.)
    expect([two.personalData.open('account', line.pix_key!), two.personalData.open('name', line.recipient_name!)]).toEqual(['clear pix_key', 'clear recipient_name']);
    expect((await marker()).kek_version).toBe(2);
    const rerun = await resealAllPersonalData(db(), two.personalData, two.personalDataTables);
    expect(rerun).toEqual({ resealed: { receivers: 0, kycSubmissions: 0, operationsRegister: 0, orders: 0, events: 0, auditLog: 0, settlementPixKeys: 0, payoutBatchItems: 0, standingAddresses: 0 }, marked: true });
    expect(await atStart(rotated)).toEqual({ scanned: false, sealed: {}, marked: true });

    // A version whose KEK is not given stops the pass: the marker stays void, the next start scans.
    const lacking = custody({ ...t.ctx.config, walletKek: Buffer.alloc(32, 9).toString('base64'), walletKekVersion: 3, walletKekPrevious: {} });
    await expect(resealAllPersonalData(db(), lacking.personalData, lacking.personalDataTables)).rejects.toThrow(/KEK version 2/);
    expect((await marker()).kek_version).toBeNull();
    expect(await atStart(rotated)).toMatchObject({ scanned: true, marked: true });
  });

  it('a clear write still open while the pass runs keeps it from setting the marker (PostgreSQL)', async (ctx) => {
    if (testDriver() !== 'postgres') return ctx.skip();
    const rotated = { ...t.ctx.config, walletKek: Buffer.alloc(32, 7).toString('base64'), walletKekVersion: 2, walletKekPrevious: { 1: t.ctx.config.walletKek } };
    await sql`update personal_data_sealing set kek_version = null`.execute(db());
    const name = (await sql<{ name: string }>`select current_database() as name`.execute(db())).rows[0]!.name;
    const writer = new pg.Client({ connectionString: process.env.DATABASE_URL!.replace(/\/[^/]*$/, `/${name}`) });
    await writer.connect();
    try {
      // An older process writes a clear name and has not committed yet when the pass starts.
      await writer.query('begin');
      await writer.query(`update receivers set name = 'written by an older process' where id = (select id from receivers order by id limit 1)`);
      let settled = false;
      const pass = atStart(rotated).finally(() => (settled = true));
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(settled, 'the pass set the marker over a clear write still open').toBe(false);
      await writer.query('commit');
      expect(await pass).toMatchObject({ scanned: true, marked: false });
    } finally {
      await writer.end();
    }
    expect(await atStart(rotated)).toMatchObject({ scanned: true, sealed: { receivers: 1 }, marked: true });
    expect(await atStart(rotated)).toEqual({ scanned: false, sealed: {}, marked: true });
  });
});
