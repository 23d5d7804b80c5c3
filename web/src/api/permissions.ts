/**
 * What the signed-in person's role may do, to disable buttons the API would refuse: the API's
 * own answer (`permissions` of the session, from src/modules/users/roles.ts), never a copy of the
 * role table, so a role change happens in one place. The API is the guard; this only spares a
 * person a 403.
 */
import { useQuery } from '@tanstack/react-query';
import type { components } from './schema.ts';
import { sessionQuery } from './session.ts';

export type Permission = components['schemas']['CurrentSession']['permissions'][number];

/** Whether the signed-in person may; false while the session loads. */
export function useMay(permission: Permission): boolean {
  const session = useQuery(sessionQuery);
  return session.data?.permissions.includes(permission) ?? false;
}
