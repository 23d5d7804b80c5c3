/**
 * Operators signed in through the back-office API, for tests of /api/v1/admin routes as a person:
 * an operator created by the service (a fixture: the API only invites, by email), signed in, TOTP
 * enrolled, and signed in again with a code (an operator's only way to a usable session); or an
 * invited one, who accepts the emailed link first.
 */
import type { LightMyRequestResponse } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import { expect } from 'vitest';
import type { LogEmailSender } from '../../src/adapters/email/log.ts';
import type { App } from '../../src/http/types.ts';
import type { OperatorRole } from '../../src/modules/operators/roles.ts';
import type { TestClock } from './app.ts';
import { PASSWORD } from './people.ts';

export interface SignedInOperator {
  id: string;
  email: string;
  cookie: string;
  csrf: string;
}

export function operatorsOf(app: App, clock: TestClock, emailPrefix = 'operator') {
  let n = 0;
  const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, headers: Record<string, string> = {}, payload?: unknown) =>
    app.inject({ method, url: `/api/v1/admin${url}`, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  const as = (operator: Pick<SignedInOperator, 'cookie' | 'csrf'>, withCsrf = true) => ({ cookie: operator.cookie, ...(withCsrf ? { 'x-csrf-token': operator.csrf } : {}) });
  const signIn = (email: string, password = PASSWORD, totp?: string) => call('POST', '/auth/sessions', {}, { email, password, ...(totp ? { totp } : {}) });
  const codeFor = (secret: string, at = clock.now()) => new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: at.getTime() });

  function sessionOf(response: LightMyRequestResponse): Omit<SignedInOperator, 'email'> {
    expect(response.statusCode, response.body).toBe(201);
    return { cookie: String(response.headers['set-cookie']).split(';')[0]!, csrf: response.json().csrfToken, id: response.json().operator.id };
  }

  async function create(role: OperatorRole) {
    const email = `${emailPrefix}${++n}@example.com`;
    const { operator } = await app.services.operators.createWithPassword({ email, role, password: PASSWORD }, { actor: 'test' });
    return { email, id: operator.id };
  }

  /** A new operator of `role`, TOTP on, signed in with a code; `secret` for later codes. */
  async function signedIn(role: OperatorRole): Promise<SignedInOperator & { secret: string }> {
    const { email } = await create(role);
    const first = sessionOf(await signIn(email));
    const enrolment = await call('POST', '/operators/me/totp', as(first));
    expect(enrolment.statusCode, enrolment.body).toBe(201);
    const { secret } = enrolment.json();
    const confirmed = await call('POST', '/operators/me/totp/confirm', as(first), { code: codeFor(secret) });
    expect(confirmed.statusCode, confirmed.body).toBe(204);
    clock.advance(30_000);
    return { email, secret, ...sessionOf(await signIn(email, PASSWORD, codeFor(secret))) };
  }

  /** The token of the last operator invitation emailed to `to` (the email port's log outbox). */
  function invitationTokenTo(to: string): string {
    const outbox = (app.services.email as LogEmailSender).outbox;
    const match = outbox.findLast((message) => message.to === to)?.text.match(/\/app\/ops\/accept-invitation#([A-Za-z0-9_-]{43})/);
    if (!match) throw new Error(`no operator invitation to ${to}`);
    return match[1]!;
  }

  /** The invited operator accepts (choosing PASSWORD), enrols TOTP and signs in with a code. */
  async function acceptInvitation(email: string): Promise<SignedInOperator & { secret: string }> {
    const accepted = await app.inject({ method: 'POST', url: `/api/v1/admin/auth/invitations/${invitationTokenTo(email)}`, payload: { password: PASSWORD } });
    expect(accepted.statusCode, accepted.body).toBe(201);
    const first = sessionOf(await signIn(email));
    const enrolment = await call('POST', '/operators/me/totp', as(first));
    const { secret } = enrolment.json();
    expect((await call('POST', '/operators/me/totp/confirm', as(first), { code: codeFor(secret) })).statusCode).toBe(204);
    clock.advance(30_000);
    return { email, secret, ...sessionOf(await signIn(email, PASSWORD, codeFor(secret))) };
  }

  return { call, as, signIn, sessionOf, codeFor, create, signedIn, invitationTokenTo, acceptInvitation };
}
