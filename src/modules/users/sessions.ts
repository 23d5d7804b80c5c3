/**
 * Sign-in and sessions (docs/architecture/people-and-sessions.md). A session's cookie value is 32
 * random bytes; the table keeps only its SHA-256, so a database read gives no usable session.
 * Every sign-in makes a new one (no fixation). A session ends at its idle expiry (no request for
 * IDLE_MS), at its absolute one (ABSOLUTE_MS after sign-in), or when revoked.
 *
 * Every failure answers the same 401 whatever was wrong (the email, the password, a missing,
 * wrong or replayed TOTP code), so the answer never tells whether an account exists or its
 * password was right. Failures are throttled per (client address, email) pair (sign-in-throttle.ts),
 * known and unknown emails alike; per address, the failed-authentication limiter of every route
 * counts them too (src/http/auth-failures.ts). A TOTP code is spent by the sign-in that uses it:
 * its time step is stored, guarded, in the transaction that creates the session.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import { readCookie } from '../../http/cookies.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { decoyHash, verifyPassword } from './passwords.ts';
import type { SessionSummary } from '../../platform/people/sessions-repo.ts';
import type { SignInThrottle } from './sign-in-throttle.ts';
import type { Totp } from './totp.ts';

export const SESSION_IDLE_MS = 30 * 60_000;
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60_000;
/** last_seen_at is written at most this often per session (one write per request is waste). */
const TOUCH_EVERY_MS = 60_000;

const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex');
/** The CSRF token of a session: derived from its secret value, so it is worthless without the cookie and needs no storage. */
export const csrfTokenFor = (sessionToken: string) => createHash('sha256').update(`csrf:${sessionToken}`).digest('base64url');

/** The one answer of every failed sign-in: no detail says which part was wrong. */
const badCredentials = () => new AppError('UNAUTHORIZED', 'Invalid email, password or TOTP code');
/** Thrown inside the sign-in transaction when the code's step was spent meanwhile; rolls the session back. */
class SpentCode extends Error {}

export interface SignIn {
  email: string;
  password: string;
  totp?: string | undefined;
  ip: string;
  userAgent: string | null;
}

export interface SignedIn<Person> {
  token: string;
  csrfToken: string;
  user: Person;
  expiresAt: string;
  /** True for an OWNER or ADMIN without TOTP: the session may only enrol it. */
  totpEnrolmentRequired: boolean;
}

/** What sign-in reads of an account: a merchant's user or an operator. */
export interface SignInRecord {
  id: string;
  password_hash: string;
  totp_secret_sealed: string | null;
  totp_enabled_at: Date | null;
}

/** The accounts of one kind of person (users, operators): sign-in reads and TOTP state. */
export interface PeopleStore<R extends SignInRecord, Person> {
  signInRecord(email: string): Promise<R | undefined>;
  /** Stores `step` as the person's last TOTP step if it is newer than the stored one; false when it is not (a replay). */
  acceptTotpStep(trx: Db, id: string, step: number): Promise<boolean>;
  /** Why an account with the right credentials may still not sign in (its merchant disabled, the operator disabled). */
  refusal(record: R): string | undefined;
  toPerson(record: R): Person;
  totpState(id: string): Promise<{ email: string; totp_secret_sealed: string | null; totp_enabled_at: Date | null }>;
  setTotpSecret(id: string, sealed: string, now: Date): Promise<void>;
  /** Turns TOTP on, spending the confirming code's step; false when it was on already. */
  enableTotp(id: string, now: Date, step: number): Promise<boolean>;
}

/** The sessions of one kind of person, found by the hash of their cookie value. */
export interface SessionStore<Active extends { id: string; lastSeenAt: Date; expiresAt: Date }> {
  insert(session: { id: string; personId: string; tokenHash: string; ip: string; userAgent: string | null; now: Date; expiresAt: Date }, trx?: Db): Promise<void>;
  findActive(tokenHash: string): Promise<Active | undefined>;
  touch(id: string, now: Date): Promise<void>;
  listFor(personId: string, now: Date): Promise<SessionSummary[]>;
  revoke(personId: string, sessionId: string, now: Date): Promise<boolean>;
}

/**
 * Sign-in, sessions and TOTP enrolment for one kind of person: merchants' users (their cookie
 * `sid`) and operators (`osid`, src/modules/operators/) share every rule here.
 */
export async function createSessions<R extends SignInRecord, Person, Active extends { id: string; lastSeenAt: Date; expiresAt: Date }>(deps: {
  db: Db;
  people: PeopleStore<R, Person>;
  sessions: SessionStore<Active>;
  totp: Totp;
  throttle: SignInThrottle;
  clock: Clock;
  totpRequired: (person: Person) => boolean;
  /** The session cookie's name, for csrfTokenOf. */
  cookieName: string;
  /** Where enrolment starts, for the error that says so. */
  enrolmentRoute: string;
}) {
  const { db, people: users, sessions, totp, throttle, clock } = deps;
  const decoy = await decoyHash();

  return {
    async signIn(input: SignIn): Promise<SignedIn<Person>> {
      const now = clock.now();
      const email = input.email.toLowerCase();
      const refuse = async (): Promise<never> => {
        await throttle.recordFailure(input.ip, email);
        throw badCredentials();
      };
      const blockedSeconds = await throttle.blockedFor(input.ip, email);
      if (blockedSeconds > 0) {
        throw new AppError('RATE_LIMITED', `Too many failed sign-ins for this email from this address; retry in ${blockedSeconds} seconds`, { retryAfterSeconds: blockedSeconds });
      }
      const record = await users.signInRecord(email);
      // The same Argon2id work whether or not the email exists.
      const passwordOk = await verifyPassword(record?.password_hash ?? decoy, input.password);
      if (!record || !passwordOk) return refuse();
      // A code sent by someone without TOTP is ignored (the forms always offer the field).
      const step = record.totp_enabled_at ? (input.totp ? totp.step(record.totp_secret_sealed!, record.id, input.totp, now) : null) : undefined;
      if (step === null) return refuse();
      const refusal = users.refusal(record);
      if (refusal) throw new AppError('FORBIDDEN', refusal);
      const token = randomBytes(32).toString('base64url');
      const expiresAt = new Date(now.getTime() + SESSION_ABSOLUTE_MS);
      try {
        await db.transaction().execute(async (trx) => {
          // Guarded: of two sign-ins racing with one code, one stores its step and the other finds it spent.
          if (step !== undefined && !(await users.acceptTotpStep(trx, record.id, step))) throw new SpentCode();
          await sessions.insert({ id: newId(), personId: record.id, tokenHash: sha256Hex(token), ip: input.ip, userAgent: input.userAgent, now, expiresAt }, trx);
        });
      } catch (err) {
        if (err instanceof SpentCode) return refuse();
        throw err;
      }
      await throttle.clear(input.ip, email);
      const user = users.toPerson(record);
      return { token, csrfToken: csrfTokenFor(token), user, expiresAt: expiresAt.toISOString(), totpEnrolmentRequired: deps.totpRequired(user) };
    },

    /** The live session behind a cookie value, or undefined (unknown, revoked, idle or past its end). */
    async authenticate(token: string): Promise<Active | undefined> {
      const session = await sessions.findActive(sha256Hex(token));
      if (!session) return undefined;
      const now = clock.now();
      if (session.expiresAt <= now || now.getTime() - session.lastSeenAt.getTime() >= SESSION_IDLE_MS) return undefined;
      if (now.getTime() - session.lastSeenAt.getTime() >= TOUCH_EVERY_MS) await sessions.touch(session.id, now);
      return session;
    },

    /** Constant-time check of an X-CSRF-Token header against the session's token. */
    csrfMatches(sessionToken: string, header: string | undefined): boolean {
      if (!header) return false;
      const expected = Buffer.from(csrfTokenFor(sessionToken));
      const given = Buffer.from(header);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },

    /** The CSRF token of the session in a Cookie header. */
    csrfTokenOf: (cookieHeader: string | undefined) => csrfTokenFor(readCookie(cookieHeader, deps.cookieName) ?? ''),

    list: (personId: string) => sessions.listFor(personId, clock.now()),

    async revoke(userId: string, sessionId: string): Promise<void> {
      if (!(await sessions.revoke(userId, sessionId, clock.now()))) throw new AppError('NOT_FOUND', 'Session not found');
    },

    /** A new TOTP secret for the person, shown once; replaces an unconfirmed one. Refused once TOTP is on. */
    async enrolTotp(personId: string): Promise<{ secret: string; otpauthUri: string }> {
      const state = await users.totpState(personId);
      if (state.totp_enabled_at) throw new AppError('CONFLICT', 'TOTP is already enabled');
      const { secret, otpauthUri, sealed } = totp.enrol(personId, state.email);
      await users.setTotpSecret(personId, sealed, clock.now());
      return { secret, otpauthUri };
    },

    async confirmTotp(personId: string, code: string): Promise<void> {
      const state = await users.totpState(personId);
      if (state.totp_enabled_at) throw new AppError('CONFLICT', 'TOTP is already enabled');
      if (!state.totp_secret_sealed) throw new AppError('CONFLICT', `Start the enrolment first (${deps.enrolmentRoute})`);
      const now = clock.now();
      const step = totp.step(state.totp_secret_sealed, personId, code, now);
      if (step === null) throw new AppError('VALIDATION_ERROR', 'code is not the current TOTP code', { 'body.code': 'is not the current TOTP code' });
      // The confirming code is spent too: it cannot sign in afterwards.
      if (!(await users.enableTotp(personId, now, step))) throw new AppError('CONFLICT', 'TOTP is already enabled');
    },
  };
}
