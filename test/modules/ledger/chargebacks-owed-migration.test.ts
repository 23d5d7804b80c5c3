/**
 * Migration 0059 (docs/decisions/0040): charge-backs posted against the fees before it (an
 * accepted MED claim debited merchant_fees_payable) are moved, by correction entries, to
 * merchant_chargebacks_owed; the fee balance is the fees again, what is owed shows apart, and the
 * next settlement nets it. Run twice it moves nothing twice; down moves it back.
 */
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { down, up } from '../../../src/db/migrations/20261205_0059_chargebacks_owed.ts';
import { newId } from '../../../src/lib/ids.ts';
import { ledgerRepo } from '../../../src/modules/ledger/repo.ts';
import { TestClock, type TestContext, createTestContext } from '../../helpers/app.ts';
import { NOON_SP, ledgerFixture } from './helpers.ts';

const clock = new TestClock(new Date(NOON_SP));
let ctx: TestContext;
const { call, feeMerchant, completedPayin, unbalancedEntries } = ledgerFixture(() => ctx);

beforeAll(async () => {
  ctx = await createTestContext({}, { clock });
});
afterAll(() => ctx?.close());

/** A charge-back as the code before 0059 posted it: merchant_fees_payable +A / med_returns_payable −A. */
async function oldStyleChargeback(merchantId: string, amount: string) {
  await ctx.database.db.transaction().execute(async (trx) => {
    const entryId = newId();
    await trx.insertInto('ledger_entries').values({ id: entryId, merchant_id: merchantId, kind: 'DISPUTE_CHARGEBACK', reference_type: 'dispute', reference_id: newId(), created_at: clock.now() }).execute();
    const payable = await ledgerRepo.accountId(trx, { code: 'merchant_fees_payable', merchantId, currency: 'BRL', wallet: null });
    const returns = await ledgerRepo.accountId(trx, { code: 'med_returns_payable', merchantId: null, currency: 'BRL', wallet: null });
    await ledgerRepo.insertPostings(trx, [
      { entryId, accountId: payable.id, account: 'merchant_fees_payable', currency: 'BRL', amount },
      { entryId, accountId: returns.id, account: 'med_returns_payable', currency: 'BRL', amount: `-${amount}` },
    ]);
  });
}

it('moves unsettled charge-backs off the fee balance into what is owed, once; down moves them back; the next settlement nets them', async () => {
  const { merchant, receiverId } = await feeMerchant('Loja Estorno Antigo');
  await completedPayin(merchant, receiverId, 250);
  await oldStyleChargeback(merchant.merchantId, '1.00');
  // The migration sees the database untyped, as the migrator gives it.
  const db = ctx.database.db as unknown as Kysely<unknown>;
  const balance = async () => (await call('GET', '/ledger/fees/balance', merchant)).json();
  expect(await balance()).toMatchObject({ balance: '1.50', chargebacksOwed: '0.00' });

  await up(db);
  expect(await balance()).toMatchObject({ balance: '2.50', chargebacksOwed: '1.00' });
  await up(db);
  expect(await balance()).toMatchObject({ balance: '2.50', chargebacksOwed: '1.00' });

  await down(db);
  expect(await balance()).toMatchObject({ balance: '1.50', chargebacksOwed: '0.00' });
  await up(db);
  expect(await balance()).toMatchObject({ balance: '2.50', chargebacksOwed: '1.00' });
  expect(await unbalancedEntries()).toEqual([]);

  clock.advance(1000);
  const run = (await call('POST', '/sandbox/settlements/run', merchant, {})).json();
  expect(run.settlements).toMatchObject([{ amountBrl: 1.5 }]);
  expect(await balance()).toMatchObject({ balance: '0.00', chargebacksOwed: '0.00' });
});
