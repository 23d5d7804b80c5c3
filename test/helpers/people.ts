/**
 * People signed in through the HTTP API, for tests of the routes a person uses: a user created
 * in the merchant, a session (its cookie and CSRF token), TOTP enrolled and codes for it. The
 * sessions, links and self-service key tests each had a copy of this.
 */
import type { LightMyRequestResponse } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import { expect } from 'vitest';
import type { App } from '../../src/http/types.ts';
import type { TestClock } from './app.ts';

export const PASSWORD = 'a long enough test password';

export type Role = 'OWNER' | 'ADMIN' | 'DEVELOPER' | 'VIEWER';

export interface Person {
  cookie: string;
  csrf: string;
  id: string;
}

/** `emailPrefix` keeps each file's addresses its own (`<prefix><n>@example.com`). */
export function peopleOf(app: App, merchantId: string, clock: TestClock, emailPrefix = 'person') {
  let n = 0;
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, headers: Record<string, string> = {}, payload?: unknown) =>
    app.inject({ method, url: `/api/v1${url}`, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  const as = (person: Person, withCsrf = true) => ({ cookie: person.cookie, ...(withCsrf ? { 'x-csrf-token': person.csrf } : {}) });

  async function newUser(role: Role) {
    const email = `${emailPrefix}${++n}@example.com`;
    const { user } = await app.services.users.create(merchantId, { email, role, password: PASSWORD });
    return { email, id: user.id };
  }

  const signIn = (email: string, password = PASSWORD, totp?: string) => call('POST', '/auth/sessions', {}, { email, password, ...(totp ? { totp } : {}) });

  function sessionOf(response: LightMyRequestResponse): Person {
    expect(response.statusCode, response.body).toBe(201);
    return { cookie: String(response.headers['set-cookie']).split(';')[0]!, csrf: response.json().csrfToken, id: response.json().user.id };
  }

  const codeFor = (secret: string, at = clock.now()) => new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: at.getTime() });

  /** Enrols and confirms TOTP for the person's session; the secret, for later codes. */
  async function enrolTotp(person: Person): Promise<string> {
    const enrolment = await call('POST', '/users/me/totp', as(person));
    expect(enrolment.statusCode, enrolment.body).toBe(201);
    const { secret, otpauthUri } = enrolment.json();
    expect(otpauthUri).toMatch(/^otpauth:\/\/totp\//);
    const confirmed = await call('POST', '/users/me/totp/confirm', as(person), { code: codeFor(secret) });
    expect(confirmed.statusCode, confirmed.body).toBe(204);
    return secret;
  }

  /** A new user of `role`, signed in (TOTP enrolled on this session when `withTotp`). */
  async function signedIn(role: Role, withTotp = false): Promise<Person & { email: string }> {
    const { email } = await newUser(role);
    const person = { email, ...sessionOf(await signIn(email)) };
    if (withTotp) await enrolTotp(person);
    return person;
  }

  /** An OWNER or ADMIN with TOTP on, signed in again with a code (its only way to a usable session). */
  async function manager(role: 'OWNER' | 'ADMIN'): Promise<Person & { email: string }> {
    const { email } = await newUser(role);
    const secret = await enrolTotp(sessionOf(await signIn(email)));
    clock.advance(30_000);
    return { email, ...sessionOf(await signIn(email, PASSWORD, codeFor(secret))) };
  }

  return { call, as, newUser, signIn, sessionOf, codeFor, enrolTotp, signedIn, manager };
}
