/**
 * What the signed-in person's role may do, to disable buttons the API would refuse. A copy of
 * the API's table (src/modules/users/roles.ts, docs/architecture/people-and-sessions.md): the
 * API is the guard; this only spares a person a 403.
 */
import { useQuery } from '@tanstack/react-query';
import type { components } from './schema.ts';
import { sessionQuery } from './session.ts';

type Role = components['schemas']['User']['role'];
export type Permission = 'read' | 'developer.write' | 'payments.write' | 'users.manage' | 'owners.manage' | 'credentials.manage';

const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  OWNER: ['read', 'developer.write', 'payments.write', 'users.manage', 'owners.manage', 'credentials.manage'],
  ADMIN: ['read', 'developer.write', 'payments.write', 'users.manage', 'credentials.manage'],
  DEVELOPER: ['read', 'developer.write'],
  VIEWER: ['read'],
};

export const roleMay = (role: Role | undefined, permission: Permission): boolean => role !== undefined && ROLE_PERMISSIONS[role].includes(permission);

/** Whether the signed-in person may; false while the session loads. */
export function useMay(permission: Permission): boolean {
  const session = useQuery(sessionQuery);
  return roleMay(session.data?.user.role, permission);
}
