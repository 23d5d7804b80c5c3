/**
 * What each role may do: the one table (docs/architecture/people-and-sessions.md repeats it).
 * API keys and bearer tokens are the merchant's own and keep every permission (but creating and
 * revoking keys, which needs a person: merchants/credential-routes.ts); these apply to people
 * signed in with a session.
 */
export const ROLES = ['OWNER', 'ADMIN', 'DEVELOPER', 'VIEWER'] as const;
export type Role = (typeof ROLES)[number];

export type Permission =
  /** Every GET of the merchant API. */
  | 'read'
  /** Webhook endpoints (create, edit, rotate, test, recover, redeliver) and the sandbox drivers. */
  | 'developer.write'
  /** Receivers, quotes, orders, fee tiers, managed-wallet signing. */
  | 'payments.write'
  /** Create, change and remove users other than owners. */
  | 'users.manage'
  /** Make, change or remove an OWNER. */
  | 'owners.manage'
  /**
   * Create and revoke the merchant's API keys. Not DEVELOPER: a key carries every permission, so
   * creating one would lift a DEVELOPER to payments.write.
   */
  | 'credentials.manage';

export const ROLE_PERMISSIONS: Readonly<Record<Role, readonly Permission[]>> = {
  OWNER: ['read', 'developer.write', 'payments.write', 'users.manage', 'owners.manage', 'credentials.manage'],
  ADMIN: ['read', 'developer.write', 'payments.write', 'users.manage', 'credentials.manage'],
  DEVELOPER: ['read', 'developer.write'],
  VIEWER: ['read'],
};

/** Roles that must have TOTP enrolled before their session may do anything but enrol it. */
export const TOTP_REQUIRED_ROLES: readonly Role[] = ['OWNER', 'ADMIN'];

export const can = (role: Role, permission: Permission): boolean => ROLE_PERMISSIONS[role].includes(permission);

const DEVELOPER_PATHS = [/^\/api\/v1\/webhook\//, /^\/api\/v1\/sandbox\//];
const CREDENTIAL_PATHS = /^\/api\/v1\/credentials(\/|$)/;

/** The permission a merchant-API request needs (its method and route pattern). */
export function permissionFor(method: string, routeUrl: string): Permission {
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return 'read';
  if (CREDENTIAL_PATHS.test(routeUrl)) return 'credentials.manage';
  return DEVELOPER_PATHS.some((pattern) => pattern.test(routeUrl)) ? 'developer.write' : 'payments.write';
}
