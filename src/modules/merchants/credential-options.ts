/**
 * The restrictions a new API key asks for, checked beyond what the schema can say: an expiry in
 * the future and at most two years ahead, a valid IP allow-list, and scopes within what the
 * creating person's role may do (a key never exceeds its creator: scopes.ts).
 */
import { AppError, invalidField } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Permission } from '../users/roles.ts';
import { validateAllowedIps } from './ip-allow-list.ts';
import { type Scope, scopesBeyond } from './scopes.ts';

/** What a key is restricted to at creation, validated. */
export interface CredentialOptions {
  label?: string | null;
  expiresAt?: Date | null;
  allowedIps?: string[] | null;
  scopes?: Scope[] | null;
}

const MAX_LIFETIME_MS = 2 * 366 * 24 * 3600 * 1000;

export interface CredentialRequest {
  label?: string;
  expiresAt?: string;
  allowedIps?: string[];
  scopes?: Scope[];
}

/** `can`: the creating person's role, or nothing for an operator (who may give any scope). */
export function credentialOptions(body: CredentialRequest, clock: Clock, can?: (permission: Permission) => boolean): CredentialOptions {
  let expiresAt: Date | null = null;
  if (body.expiresAt !== undefined) {
    expiresAt = new Date(body.expiresAt);
    const ahead = expiresAt.getTime() - clock.now().getTime();
    if (!(ahead > 0)) throw invalidField('body.expiresAt', 'must be in the future');
    if (ahead > MAX_LIFETIME_MS) throw invalidField('body.expiresAt', 'must be at most 2 years ahead');
  }
  const scopes = body.scopes ?? null;
  if (can) {
    const beyond = scopesBeyond(can, scopes);
    if (beyond.length > 0) {
      throw new AppError('FORBIDDEN', `Your role cannot give a key ${scopes ? 'the scopes' : 'full access, which includes'} ${beyond.join(', ')}`, { reason: 'ROLE_NOT_ALLOWED', scopes: beyond });
    }
  }
  return {
    label: body.label ?? null,
    expiresAt,
    allowedIps: body.allowedIps ? validateAllowedIps(body.allowedIps) : null,
    scopes,
  };
}
