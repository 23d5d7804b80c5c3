/**
 * Sign-in and sessions (docs/architecture/people-and-sessions.md). A session's cookie value is 32
 * random bytes; the table keeps only its SHA-256, so a database read gives no usable session.
 * Every sign-in makes a new one (no fixation). A session ends at its idle expiry (no request for
 * IDLE_MS), at its absolute one (ABSOLUTE_MS after sign-in), or when revoked.
 *
 * Failed sign-ins back off per account: from the FREE_FAILURES-th on, the account is locked for
 * BASE_LOCK_MS doubling at each further failure (capped at MAX_LOCK_MS), answered 429 with
 * Retry-After before any password check. Per address, the failed-authentication limiter of
 * every route counts them too (src/http/auth-failures.ts).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../errors.ts';
import { readCookie, SESSION_COOKIE } from '../../http/cookies.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { decoyHash, verifyPassword } from './passwords.ts';
import type { User, UsersRepo } from './repo.ts';
import { toUser } from './repo.ts';
import { type ActiveSession, type SessionsRepo } from './sessions-repo.ts';
import type { Totp } from './totp.ts';

export const SESSION_IDLE_MS = 30 * 60_000;
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60_000;
export const FREE_FAILURES = 5;
const BASE_LOCK_MS = 30_000;
const MAX_LOCK_MS = 15 * 60_000;
/** last_seen_at is written at most this often per session (one write per request is waste). */
const TOUCH_EVERY_MS = 60_000;

const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex');
/** The CSRF token of a session: derived from its secret value, so it is worthless without the cookie and needs no storage. */
export const csrfTokenFor = (sessionToken: string) => createHash('sha256').update(`csrf:${sessionToken}`).digest('base64url');

const badCredentials = () => new AppError('UNAUTHORIZED', 'Invalid email, password or TOTP code');

export interface SignIn {
  email: string;
  password: string;
  totp?: string | undefined;
  ip: string;
  userAgent: string | null;
}

export interface SignedIn {
  token: string;
  csrfToken: string;
  user: User;
  expiresAt: string;
  /** True for an OWNER or ADMIN without TOTP: the session may only enrol it. */
  totpEnrolmentRequired: boolean;
}

export function lockDurationMs(failures: number): number {
  if (failures < FREE_FAILURES) return 0;
  return Math.min(MAX_LOCK_MS, BASE_LOCK_MS * 2 ** (failures - FREE_FAILURES));
}

export async function createSessions(deps: { users: UsersRepo; sessions: SessionsRepo; totp: Totp; clock: Clock; totpRequired: (user: Pick<User, 'role' | 'totpEnabled'>) => boolean }) {
  const { users, sessions, totp, clock } = deps;
  const decoy = await decoyHash();

  async function refuse(record: { id: string; failed_sign_ins: number }): Promise<never> {
    const failures = record.failed_sign_ins + 1;
    const lockMs = lockDurationMs(failures);
    await users.recordFailure(record.id, failures, lockMs > 0 ? new Date(clock.now().getTime() + lockMs) : null);
    throw badCredentials();
  }

  return {
    async signIn(input: SignIn): Promise<SignedIn> {
      const now = clock.now();
      const record = await users.signInRecord(input.email.toLowerCase());
      if (record?.locked_until && record.locked_until > now) {
        const seconds = Math.max(1, Math.ceil((record.locked_until.getTime() - now.getTime()) / 1000));
        throw new AppError('RATE_LIMITED', `Too many failed sign-ins for this account; retry in ${seconds} seconds`, { retryAfterSeconds: seconds });
      }
      // The same Argon2id work whether or not the email exists.
      const passwordOk = await verifyPassword(record?.password_hash ?? decoy, input.password);
      if (!record || !passwordOk) {
        if (record) await refuse(record);
        throw badCredentials();
      }
      if (record.totp_enabled_at) {
        if (!input.totp) throw new AppError('UNAUTHORIZED', 'A TOTP code is required for this account', { totpRequired: true });
        if (!totp.check(record.totp_secret_sealed!, record.id, input.totp, now)) await refuse(record);
      }
      if (record.merchant_status !== 'ACTIVE') throw new AppError('FORBIDDEN', 'Merchant is disabled');
      await users.clearFailures(record.id);
      const token = randomBytes(32).toString('base64url');
      const expiresAt = new Date(now.getTime() + SESSION_ABSOLUTE_MS);
      await sessions.insert({ id: newId(), userId: record.id, tokenHash: sha256Hex(token), ip: input.ip, userAgent: input.userAgent, now, expiresAt });
      const user = toUser(record);
      return { token, csrfToken: csrfTokenFor(token), user, expiresAt: expiresAt.toISOString(), totpEnrolmentRequired: deps.totpRequired(user) };
    },

    /** The live session behind a cookie value, or undefined (unknown, revoked, idle or past its end). */
    async authenticate(token: string): Promise<ActiveSession | undefined> {
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
    csrfTokenOf: (cookieHeader: string | undefined) => csrfTokenFor(readCookie(cookieHeader, SESSION_COOKIE) ?? ''),

    list: (userId: string) => sessions.listForUser(userId, clock.now()),

    async revoke(userId: string, sessionId: string): Promise<void> {
      if (!(await sessions.revoke(userId, sessionId, clock.now()))) throw new AppError('NOT_FOUND', 'Session not found');
    },
  };
}

export type Sessions = Awaited<ReturnType<typeof createSessions>>;
