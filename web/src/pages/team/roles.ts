/** The roles a person may have, in the API's order (User.role), and the users query every team section shares. */
import { queryOptions } from '@tanstack/react-query';
import { api, call } from '../../api/client.ts';
import type { components } from '../../api/schema.ts';
import { keys } from '../../api/query-keys.ts';

export type Role = components['schemas']['User']['role'];
export type Member = components['schemas']['User'];
export const ROLES: readonly Role[] = ['OWNER', 'ADMIN', 'DEVELOPER', 'VIEWER'];

export const usersQuery = queryOptions({ queryKey: keys.users, queryFn: () => call(api.GET('/users')) });
