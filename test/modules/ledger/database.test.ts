/**
 * The ledger's rules as the database enforces them, whatever the code does: every entry sums
 * to zero per currency, and entries and postings are append-only.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../../../src/lib/ids.ts';
import { TestClock, type TestContext, createTestContext } from '../../helpers/app.ts';
import { NOON_SP, ledgerFixture } from './helpers.ts';

const clock = new TestClock(new Date(NOON_SP));
let ctx: TestContext;
const { feeMerchant, completedPayin } = ledgerFixture(() => ctx);

beforeAll(async () => {
  ctx = await createTestContext({}, { clock });
});
afterAll(() => ctx?.close());
beforeEach(() => clock.set(NOON_SP));

describe('database rules', () => {
  it('the database refuses unbalanced entries and any update or delete', async () => {
    const { merchant, receiverId } = await feeMerchant('Loja Regras');
    // A completed payin of its own, so that accounts and entries exist to tamper with.
    await completedPayin(merchant, receiverId, 10);
    const accountId = (await ctx.database.db.selectFrom('ledger_accounts').select('id').limit(1).executeTakeFirstOrThrow()).id;
    await expect(
      ctx.database.db.transaction().execute(async (trx) => {
        const entryId = newId();
        await trx.insertInto('ledger_entries').values({ id: entryId, merchant_id: merchant.merchantId, kind: 'MANUAL', reference_type: 'order', reference_id: newId(), created_at: new Date() }).execute();
        await trx.insertInto('ledger_postings').values({ id: newId(), entry_id: entryId, account_id: accountId, currency: 'BRL', amount: '10' }).execute();
      }),
    ).rejects.toThrow(/sum to zero/);
    const anyEntry = await ctx.database.db.selectFrom('ledger_entries').select('id').limit(1).executeTakeFirstOrThrow();
    await expect(sql`update ledger_entries set kind = 'X' where id = ${anyEntry.id}`.execute(ctx.database.db)).rejects.toThrow(/append-only/);
    await expect(sql`delete from ledger_postings where entry_id = ${anyEntry.id}`.execute(ctx.database.db)).rejects.toThrow(/append-only/);
    await expect(sql`update ledger_postings set amount = amount where entry_id = ${anyEntry.id}`.execute(ctx.database.db)).rejects.toThrow(/append-only/);
    await expect(sql`delete from ledger_entries where id = ${anyEntry.id}`.execute(ctx.database.db)).rejects.toThrow(/append-only/);
    // Since migration 0049 (one shared trigger function), as the audit log and the register always did.
    await expect(sql`truncate ledger_postings`.execute(ctx.database.db)).rejects.toThrow(/append-only/);
  });
});
