/**
 * Sign-in controls that hold against insiders and strangers (issue 38 items 3 and 4): a TOTP code
 * signs in once, for merchants' users and operators alike; every failure answers the same whether
 * the email exists or not, and whether the password was right or not; failures are throttled per
 * (client address, email), so a stranger's failures never lock out the victim elsewhere.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, expectErrorBody, TestClock, type TestContext, type TestMerchant } from '../../helpers/app.ts';
import { operatorsOf } from '../../helpers/operators.ts';
import { PASSWORD, peopleOf } from '../../helpers/people.ts';

const clock = new TestClock(new Date('2026-12-05T12:00:10Z'));

describe('sign-in controls', () => {
  let ctx: TestContext;
  let merchant: TestMerchant;
  let people: ReturnType<typeof peopleOf>;
  let ops: ReturnType<typeof operatorsOf>;
  let address = 0;
  /** A fresh client address per test: the per-address limiter of every route stays out of the way. */
  const nextAddress = () => `198.51.100.${++address}`;

  beforeAll(async () => {
    ctx = await createTestContext({}, { clock });
    merchant = await ctx.createMerchant();
    people = peopleOf(ctx.app, merchant.merchantId, clock, 'signin');
    ops = operatorsOf(ctx.app, clock, 'signin-op');
  });
  afterAll(() => ctx?.close());

  const userSignIn = (body: { email: string; password?: string; totp?: string }, ip: string) =>
    ctx.app.inject({ method: 'POST', url: '/api/v1/auth/sessions', remoteAddress: ip, payload: { password: PASSWORD, ...body } });
  const operatorSignIn = (body: { email: string; password?: string; totp?: string }, ip: string) =>
    ctx.app.inject({ method: 'POST', url: '/api/v1/admin/auth/sessions', remoteAddress: ip, payload: { password: PASSWORD, ...body } });
  /** What a failure says, without what differs per request. */
  const failureOf = (response: { statusCode: number; headers: Record<string, unknown>; json(): unknown }) => {
    const { requestId: _requestId, ...body } = response.json() as Record<string, unknown>;
    return { status: response.statusCode, body, retryAfter: response.headers['retry-after'] };
  };

  it("a merchant user's TOTP code signs in once; the same code again, and the previous step's code, are refused", async () => {
    const ip = nextAddress();
    const user = await people.signedIn('ADMIN');
    const secret = { email: user.email, secret: await people.enrolTotp(user) };
    // The code that confirmed the enrolment is spent: it does not sign in.
    expectErrorBody(await userSignIn({ email: secret.email, totp: people.codeFor(secret.secret) }, ip), 401, 'UNAUTHORIZED');
    clock.advance(30_000);
    const code = people.codeFor(secret.secret);
    expect((await userSignIn({ email: secret.email, totp: code }, ip)).statusCode).toBe(201);
    expectErrorBody(await userSignIn({ email: secret.email, totp: code }, ip), 401, 'UNAUTHORIZED');
    // The previous step's code is still inside the drift window, but older than the one used.
    const previous = people.codeFor(secret.secret, new Date(clock.now().getTime() - 30_000));
    expectErrorBody(await userSignIn({ email: secret.email, totp: previous }, ip), 401, 'UNAUTHORIZED');
    clock.advance(30_000);
    expect((await userSignIn({ email: secret.email, totp: people.codeFor(secret.secret) }, ip)).statusCode).toBe(201);
  });

  it("an operator's TOTP code signs in once; the same code again, and the previous step's code, are refused", async () => {
    const ip = nextAddress();
    const operator = await ops.signedIn('VIEWER');
    // signedIn used the current step's code: it is spent.
    expectErrorBody(await operatorSignIn({ email: operator.email, totp: ops.codeFor(operator.secret) }, ip), 401, 'UNAUTHORIZED');
    clock.advance(30_000);
    const code = ops.codeFor(operator.secret);
    expect((await operatorSignIn({ email: operator.email, totp: code }, ip)).statusCode).toBe(201);
    expectErrorBody(await operatorSignIn({ email: operator.email, totp: code }, ip), 401, 'UNAUTHORIZED');
    expectErrorBody(await operatorSignIn({ email: operator.email, totp: ops.codeFor(operator.secret, new Date(clock.now().getTime() - 30_000)) }, ip), 401, 'UNAUTHORIZED');
  });

  it('two sign-ins racing with one code: one session, one refusal', async () => {
    const ip = nextAddress();
    const operator = await ops.signedIn('VIEWER');
    clock.advance(30_000);
    const code = ops.codeFor(operator.secret);
    const answers = await Promise.all([operatorSignIn({ email: operator.email, totp: code }, ip), operatorSignIn({ email: operator.email, totp: code }, ip)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 401]);
  });

  it('an unknown email and a known one answer the same status and body for a wrong password, and for a right password without the code', async () => {
    const user = await people.signedIn('ADMIN');
    await people.enrolTotp(user);
    const operator = await ops.signedIn('VIEWER');
    for (const [signIn, email] of [
      [userSignIn, user.email],
      [operatorSignIn, operator.email],
    ] as const) {
      const unknown = failureOf(await signIn({ email: `nobody-${email}`, password: 'not the password' }, nextAddress()));
      const wrongPassword = failureOf(await signIn({ email, password: 'not the password' }, nextAddress()));
      const rightPasswordNoCode = failureOf(await signIn({ email }, nextAddress()));
      const rightPasswordWrongCode = failureOf(await signIn({ email, totp: '000000' }, nextAddress()));
      expect(unknown).toMatchObject({ status: 401, body: { error: 'UNAUTHORIZED' } });
      expect(wrongPassword).toEqual(unknown);
      expect(rightPasswordNoCode).toEqual(unknown);
      expect(rightPasswordWrongCode).toEqual(unknown);
      expect(JSON.stringify(unknown)).not.toContain('totpRequired');
    }
  });

  it('after five failures, an unknown email and a known one are throttled alike (429, same body and Retry-After)', async () => {
    const { email } = await people.newUser('VIEWER');
    const known = nextAddress();
    const stranger = nextAddress();
    for (let i = 0; i < 5; i++) {
      expectErrorBody(await userSignIn({ email, password: 'wrong' }, known), 401, 'UNAUTHORIZED');
      expectErrorBody(await userSignIn({ email: 'nobody-at-all@example.com', password: 'wrong' }, stranger), 401, 'UNAUTHORIZED');
    }
    const knownBlocked = failureOf(await userSignIn({ email }, known));
    const unknownBlocked = failureOf(await userSignIn({ email: 'nobody-at-all@example.com' }, stranger));
    expect(knownBlocked).toMatchObject({ status: 429, body: { error: 'RATE_LIMITED', details: { retryAfterSeconds: 30 } }, retryAfter: '30' });
    expect(unknownBlocked).toEqual(knownBlocked);
    clock.advance(31_000);
    expect((await userSignIn({ email }, known)).statusCode).toBe(201);
    // A success forgets the pair's failures: one more failure does not block.
    expectErrorBody(await userSignIn({ email, password: 'wrong' }, known), 401, 'UNAUTHORIZED');
    expect((await userSignIn({ email }, known)).statusCode).toBe(201);
  });

  it("a stranger's failures from their address never lock out the victim signing in from another", async () => {
    const { email } = await people.newUser('DEVELOPER');
    const operator = await ops.create('VIEWER');
    const stranger = nextAddress();
    for (let i = 0; i < 8; i++) {
      await userSignIn({ email, password: 'guess' }, stranger);
      await operatorSignIn({ email: operator.email, password: 'guess' }, stranger);
    }
    expectErrorBody(await userSignIn({ email }, stranger), 429, 'RATE_LIMITED');
    expectErrorBody(await operatorSignIn({ email: operator.email }, stranger), 429, 'RATE_LIMITED');
    expect((await userSignIn({ email }, nextAddress())).statusCode).toBe(201);
    expect((await operatorSignIn({ email: operator.email }, nextAddress())).statusCode).toBe(201);
  });

  it('an IPv6 client is counted by its /64: another address of the same network shares its failures, another network does not', async () => {
    const { email } = await people.newUser('DEVELOPER');
    for (let i = 0; i < 5; i++) await userSignIn({ email, password: 'guess' }, `2001:db8:1:2::${i + 1}`);
    expectErrorBody(await userSignIn({ email }, '2001:db8:1:2:ffff::9'), 429, 'RATE_LIMITED');
    expect((await userSignIn({ email }, '2001:db8:1:3::1')).statusCode).toBe(201);
  });

  it('stores only a keyed hash of the address and email', async () => {
    const { email } = await people.newUser('VIEWER');
    await userSignIn({ email, password: 'wrong' }, '203.0.113.77');
    const rows = await ctx.database.db.selectFrom('sign_in_failures').selectAll().execute();
    expect(rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(rows)).not.toContain(email);
    expect(JSON.stringify(rows)).not.toContain('203.0.113.77');
  });
});
