/**
 * The bootstrap's end and a one-person invite are serialised (operators/bootstrap.ts
 * isOverLocked): an enrolment in flight, the second, holds its operator's row until it commits;
 * an ADMIN inviting alone at that moment waits for it and is judged on the count it makes (two:
 * 403 FOUR_EYES_REQUIRED), instead of reading the count of before and inviting alone after the
 * bootstrap ended. Two transactions at once need PostgreSQL: PGlite has one connection, so there
 * the race cannot happen. The invite is seen waiting on the enrolment's lock (pg_blocking_pids) before the
 * enrolment commits, rather than given a fixed time to get there.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, type TestContext, TestClock, createTestContext, expectErrorBody } from '../../helpers/app.ts';
import { operatorsOf, type SignedInOperator } from '../../helpers/operators.ts';

const clock = new TestClock(new Date('2026-12-05T03:00:00Z'));

describe.runIf(process.env.DATABASE_URL)('the bootstrap ends under a lock: an enrolment racing a one-person invite', () => {
  let ctx: TestContext;
  let ops: ReturnType<typeof operatorsOf>;
  let alice: SignedInOperator;

  beforeAll(async () => {
    ctx = await createTestContext({}, { clock });
    ops = operatorsOf(ctx.app, clock, 'race');
    expect((await ops.call('POST', '/operators', { authorization: `Bearer ${ADMIN_TOKEN}` }, { email: 'alice@example.com', role: 'ADMIN' })).statusCode).toBe(202);
    alice = await ops.acceptInvitation('alice@example.com');
  });
  afterAll(async () => ctx?.close());

  it('an invite made while the second enrolment is in flight waits for it, then is refused', async () => {
    const bob = await ops.create('ADMIN');
    let invite: ReturnType<typeof ops.call> | undefined;
    let answered = false;
    let answeredWhileHeld = true;
    // The second enrolment, held open between its update (as users/sessions.ts confirmTotp makes it) and its commit.
    await ctx.database.db.transaction().execute(async (trx) => {
      await trx.updateTable('operators').set({ totp_enabled_at: clock.now(), updated_at: clock.now() }).where('id', '=', bob.id).where('totp_enabled_at', 'is', null).execute();
      const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
      invite = ops.call('POST', '/operators', ops.as(alice), { email: 'mallory@example.com', role: 'ADMIN' });
      void invite.then(() => (answered = true));
      // Held until the invite is seen waiting on this transaction's lock, however long it takes to get
      // there (a fixed sleep was a guess: under load the invite could arrive after the commit, and the
      // test then proved nothing). Asked on another connection: pg_stat_activity is a snapshot within a transaction.
      await waitForBlocked(rows[0]!.pid);
      answeredWhileHeld = answered;
    });
    // Read before the commit: after it, the invite's answer may come before this transaction's own does.
    expect(answeredWhileHeld).toBe(false);
    const answer = await invite!;
    expectErrorBody(answer, 403, 'FORBIDDEN');
    expect(answer.json().details).toEqual({ reason: 'FOUR_EYES_REQUIRED' });
    expect(await ctx.database.db.selectFrom('operator_invitations').select('id').where('email', '=', 'mallory@example.com').execute()).toEqual([]);
  });

  /** Until a session of the database waits on a lock held by backend `pid` (throws after 20 s). */
  async function waitForBlocked(pid: number): Promise<void> {
    for (const deadline = Date.now() + 20_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 20))) {
      const { rows } = await sql<{ n: string }>`select count(*) as n from pg_stat_activity where ${pid} = any(pg_blocking_pids(pid))`.execute(ctx.database.db);
      if (Number(rows[0]!.n) > 0) return;
    }
    throw new Error('the invite never waited on the enrolment in flight');
  }
});
