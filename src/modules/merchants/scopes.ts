/**
 * API-key scopes (issue 28): the one table tying each merchant-API route to the scope a
 * restricted key needs for it. A key created without scopes has full access, as every key
 * before; a key with scopes is refused 403 SCOPE_REQUIRED anywhere its scopes do not cover.
 * Each scope maps to the role permission (users/roles.ts) its creator must hold, so a key never
 * exceeds the person who made it.
 */
import type { Permission } from '../users/roles.ts';

export const SCOPES = ['read', 'payments.write', 'receivers.write', 'webhooks.write', 'wallets.sign', 'sandbox.write'] as const;
export type Scope = (typeof SCOPES)[number];

/** The role permission a person needs to give a key each scope. */
export const SCOPE_PERMISSION: Readonly<Record<Scope, Permission>> = {
  read: 'read',
  'payments.write': 'payments.write',
  'receivers.write': 'payments.write',
  'webhooks.write': 'developer.write',
  'wallets.sign': 'payments.write',
  'sandbox.write': 'developer.write',
};

/**
 * Writes (any method but GET, HEAD, OPTIONS, which need `read`), first match wins. Routes not
 * listed (API keys, users, sessions: they need a signed-in person anyway) no scope covers, so a
 * scoped key is refused there; a route added without a row is refused to scoped keys until one
 * is added (test/modules/merchants/api-key-scopes.test.ts lists every route).
 */
export const WRITE_SCOPES: ReadonlyArray<readonly [RegExp, Scope]> = [
  [/^\/api\/v1\/(quotes|payin|payout|orders|fee-tiers|markups|disputes|payout-batches|payout-batch-settings)(\/|$)/, 'payments.write'],
  [/^\/api\/v1\/(merchant\/wallet|receivers\/[^/]+\/wallet)\/sign-/, 'wallets.sign'],
  [/^\/api\/v1\/receivers(\/|$)/, 'receivers.write'],
  [/^\/api\/v1\/webhook\//, 'webhooks.write'],
  [/^\/api\/v1\/sandbox\//, 'sandbox.write'],
];

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The scope a request needs (its method and route pattern), or undefined when no scope covers it. */
export function scopeFor(method: string, routeUrl: string): Scope | undefined {
  if (READ_METHODS.has(method)) return 'read';
  return WRITE_SCOPES.find(([pattern]) => pattern.test(routeUrl))?.[1];
}

/** Scopes the role lacks a permission for (empty when it may give them all). No scopes asks for all of them. */
export function scopesBeyond(can: (permission: Permission) => boolean, scopes: readonly Scope[] | null): Scope[] {
  return (scopes ?? SCOPES).filter((scope) => !can(SCOPE_PERMISSION[scope]));
}
