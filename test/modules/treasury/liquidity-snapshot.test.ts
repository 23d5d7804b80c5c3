/**
 * Issue 38 item 8: the treasury liquidity snapshot's rules, which mutation testing found unheld
 * (37 %): PAYINs whose transfer is in flight owe their tokens too; a reconciliation run's balances
 * count only while younger than TREASURY_BALANCE_MAX_AGE_MS; a node that failed is asked again only
 * after the retry pause; balances remembered from elsewhere in the process serve the check, never
 * replaced by older ones; what the process admits itself is subtracted until the next recomputation.
 * Each test has its own snapshot (createLiquidity) on the app's database, and its own day on the
 * clock, so a reconciliation run one test records is stale for the next.
 */
import { describe, expect, it, vi } from 'vitest';
import { newId } from '../../../src/lib/ids.ts';
import { decimal } from '../../../src/lib/money.ts';
import { createLiquidity } from '../../../src/modules/treasury/liquidity.ts';
import { treasuryRepo } from '../../../src/modules/treasury/repo.ts';
import { TestClock } from '../../helpers/app.ts';
import { ordersTest } from '../orders/helpers.ts';
import { TREASURY_ADDRESS, fakeTreasury } from './helpers.ts';

const MAX_AGE = 60_000;
const REFRESH = 1000;
const DAY = 86_400_000;

describe('the treasury liquidity snapshot', () => {
  // The app runs on the sandbox chain (no liquidity check of its own): it only makes the orders.
  const t = ordersTest();
  let day = 0;

  /** A snapshot of its own, on a day of its own, reading `balances` from a fake node. */
  const snapshotFor = (balances: Record<string, string>) => {
    day += 1;
    const clock = new TestClock(new Date(Date.parse('2027-01-01T12:00:00.000Z') + day * DAY));
    const treasury = fakeTreasury(balances);
    const log = { warn: vi.fn() };
    const liquidity = createLiquidity({ db: t.ctx.database.db, clock, reader: treasury.reader, settings: { balanceMaxAgeMs: MAX_AGE, liquidityRefreshMs: REFRESH }, log });
    return { clock, treasury, liquidity, log };
  };
  /** What open PAYINs (earlier tests' too) owe in USDC: the balances below are set above it. */
  const owedUsdc = async () => {
    const { owed, inFlight } = await treasuryRepo.openPayins(t.ctx.database.db);
    return [...owed, ...inFlight].filter((sum) => sum.token === 'USDC').reduce((total, sum) => total.plus(sum.amount), decimal(0));
  };
  const refusal = (work: Promise<void>) => work.then(() => 'admitted', (err: { code?: string }) => err.code);

  it('subtracts the tokens of PAYINs whose transfer is in flight, and those it admitted itself', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const order = await t.payin(merchant, { receiverId: receiver.id, amountBrl: 54 });
    await t.ctx.database.db.updateTable('orders').set({ status: 'TRANSFERRING' }).where('id', '=', order.id).execute();
    const inFlight = (await treasuryRepo.openPayins(t.ctx.database.db)).inFlight.find((sum) => sum.token === 'USDC');
    expect(decimal(inFlight!.amount).gt(7.5)).toBe(true);

    const { liquidity } = snapshotFor({ SOL: '2', USDC: (await owedUsdc()).plus(1).toString() });
    // One token is left once the transfer in flight is counted: two are refused, one fits exactly.
    expect(await refusal(liquidity.checkPayin('USDC', '2'))).toBe('TREASURY_INSUFFICIENT_LIQUIDITY');
    expect(await refusal(liquidity.checkPayin('USDC', '1'))).toBe('admitted');
    // That one is now owed too: nothing more fits before the next recomputation.
    expect(await refusal(liquidity.checkPayin('USDC', '0.000001'))).toBe('TREASURY_INSUFFICIENT_LIQUIDITY');
    // A token the treasury does not hold at all is refused.
    expect(await refusal(liquidity.checkPayin('USDT', '0.000001'))).toBe('TREASURY_INSUFFICIENT_LIQUIDITY');
  });

  it("takes a reconciliation run's balances only while younger than the balance age; an older one sends it to the node", async () => {
    const { clock, treasury, liquidity } = snapshotFor({ SOL: '2', USDC: '0' });
    const owed = await owedUsdc();
    const run = async (finishedAgoMs: number) => {
      const finishedAt = new Date(clock.now().getTime() - finishedAgoMs);
      await treasuryRepo.insertRun(
        t.ctx.database.db,
        { id: newId(), started_at: new Date(finishedAt.getTime() - 500), finished_at: finishedAt, address: TREASURY_ADDRESS, in_flight_transfers: 0, drift_found: false },
        [{ wallet: 1, currency: 'USDC', on_chain: owed.plus(1000).toString(), ledger: '0', drift: '0', in_flight_amount: '0' }],
      );
    };
    // Finished exactly the balance age ago: stale, so the node (empty) is read.
    await run(MAX_AGE);
    expect(await refusal(liquidity.checkPayin('USDC', '5'))).toBe('TREASURY_INSUFFICIENT_LIQUIDITY');
    expect(treasury.state.reads).toBe(1);

    // A run a millisecond younger than the age, on a snapshot that has read nothing yet: taken, no node read.
    const second = snapshotFor({ SOL: '2', USDC: '0' });
    const finishedAt = new Date(second.clock.now().getTime() - MAX_AGE + 1);
    await treasuryRepo.insertRun(
      t.ctx.database.db,
      { id: newId(), started_at: finishedAt, finished_at: finishedAt, address: TREASURY_ADDRESS, in_flight_transfers: 0, drift_found: false },
      [{ wallet: 1, currency: 'USDC', on_chain: (await owedUsdc()).plus(1000).toString(), ledger: '0', drift: '0', in_flight_amount: '0' }],
    );
    expect(await refusal(second.liquidity.checkPayin('USDC', '5'))).toBe('admitted');
    expect(second.treasury.state.reads).toBe(0);
  });

  it('answers from the last snapshot until the balance age, then waits for the node once it is that old', async () => {
    const { clock, treasury, liquidity } = snapshotFor({ SOL: '2', USDC: (await owedUsdc()).plus(100).toString() });
    expect(await refusal(liquidity.checkPayin('USDC', '10'))).toBe('admitted');
    expect(treasury.state.reads).toBe(1);
    treasury.set('USDC', '0');

    // Younger than the balance age: the request does not wait, the last snapshot answers; the
    // recomputation it starts takes the process's own balance, still young enough.
    clock.advance(MAX_AGE - 1);
    expect(await refusal(liquidity.checkPayin('USDC', '10'))).toBe('admitted');
    await liquidity.refresh();
    expect(treasury.state.reads).toBe(1);

    // A snapshot exactly the balance age old: the request waits for a recomputation, which reads
    // the node (its own balance is older still), and the empty treasury refuses.
    clock.advance(MAX_AGE);
    expect(await refusal(liquidity.checkPayin('USDC', '10'))).toBe('TREASURY_INSUFFICIENT_LIQUIDITY');
    expect(treasury.state.reads).toBe(2);

    // Its own balance exactly the age old is not taken either: the node, funded again, is read.
    treasury.set('USDC', (await owedUsdc()).plus(100).toString());
    clock.advance(MAX_AGE);
    expect(await refusal(liquidity.checkPayin('USDC', '10'))).toBe('admitted');
    expect(treasury.state.reads).toBe(3);
  });

  it('after a failed node read, asks the node again only once the retry pause (5 s) has passed, and warns', async () => {
    const { clock, treasury, liquidity, log } = snapshotFor({ SOL: '2', USDC: '0' });
    treasury.state.failing = true;
    // No balance ever read: the liquidity is unknown, so refused (issue 40; decision 0036).
    expect(await refusal(liquidity.checkPayin('USDC', '10'))).toBe('PROVIDER_UNAVAILABLE');
    expect(treasury.state.reads).toBe(1);
    expect(log.warn).toHaveBeenCalledWith(expect.objectContaining({ balanceAgeMs: null }), expect.stringContaining('treasury balances unreadable'));

    // Within the retry pause the node is not asked again, though it answers now: still unknown.
    clock.advance(4999);
    treasury.state.failing = false;
    expect(await refusal(liquidity.checkPayin('USDC', '10'))).toBe('PROVIDER_UNAVAILABLE');
    expect(treasury.state.reads).toBe(1);

    clock.advance(1);
    expect(await refusal(liquidity.checkPayin('USDC', '10'))).toBe('TREASURY_INSUFFICIENT_LIQUIDITY');
    expect(treasury.state.reads).toBe(2);
  });

  it('uses balances remembered from elsewhere in the process; an older one never replaces a newer, one as new does', async () => {
    const { clock, treasury, liquidity } = snapshotFor({ SOL: '2', USDC: '0' });
    const plenty = (await owedUsdc()).plus(100).toString();
    liquidity.remember(new Map([[1, new Map([['USDC', plenty]])]]), clock.now());
    expect(await refusal(liquidity.checkPayin('USDC', '50'))).toBe('admitted');
    expect(treasury.state.reads).toBe(0);

    const at = clock.now();
    clock.advance(REFRESH);
    liquidity.remember(new Map([[1, new Map([['USDC', '0']])]]), new Date(at.getTime() - 1));
    await liquidity.refresh();
    expect(await refusal(liquidity.checkPayin('USDC', '50'))).toBe('admitted');

    liquidity.remember(new Map([[1, new Map([['USDC', '0']])]]), at);
    await liquidity.refresh();
    expect(await refusal(liquidity.checkPayin('USDC', '50'))).toBe('TREASURY_INSUFFICIENT_LIQUIDITY');
    expect(treasury.state.reads).toBe(0);
  });

  it('recomputes from exactly the refresh age without the request waiting for it; a recomputation that fails warns and keeps the last snapshot', async () => {
    const { clock, treasury, liquidity, log } = snapshotFor({ SOL: '2', USDC: (await owedUsdc()).plus(100).toString() });
    expect(await refusal(liquidity.checkPayin('USDC', '10'))).toBe('admitted');
    const recomputations = vi.spyOn(treasuryRepo, 'openPayins');
    try {
      clock.advance(REFRESH - 1);
      expect(await refusal(liquidity.checkPayin('USDC', '10'))).toBe('admitted');
      expect(recomputations).not.toHaveBeenCalled();

      // Exactly the refresh age: a recomputation starts, and one that never ends does not hold
      // the request (answered from the snapshot at once, not after the 1 s wait limit).
      let finish: (failure: Error) => void = () => {};
      recomputations.mockImplementationOnce(() => new Promise((_resolve, rejectWith) => (finish = rejectWith)));
      clock.advance(1);
      const answered = await Promise.race([refusal(liquidity.checkPayin('USDC', '10')), new Promise((resolve) => setTimeout(() => resolve('waited'), 500))]);
      expect(answered).toBe('admitted');
      expect(recomputations).toHaveBeenCalledTimes(1);

      finish(new Error('the database is gone'));
      await liquidity.refresh();
      expect(log.warn).toHaveBeenCalledWith({ err: expect.objectContaining({ message: 'the database is gone' }) }, 'treasury liquidity snapshot failed; the previous one stays in use');
      // The last snapshot still answers, less the three 10s it admitted: the other 70 fit, no more.
      expect(await refusal(liquidity.checkPayin('USDC', '70'))).toBe('admitted');
      expect(await refusal(liquidity.checkPayin('USDC', '0.000001'))).toBe('TREASURY_INSUFFICIENT_LIQUIDITY');
    } finally {
      recomputations.mockRestore();
    }

    // A node failing after a good read: the warning says how old the balance in use is.
    await liquidity.refresh(); // the recomputation the last checks started, on the balance in memory
    treasury.state.failing = true;
    clock.advance(MAX_AGE);
    await liquidity.refresh();
    expect(log.warn).toHaveBeenLastCalledWith(expect.objectContaining({ balanceAgeMs: MAX_AGE + REFRESH }), expect.stringContaining('treasury balances unreadable'));
  });
});
