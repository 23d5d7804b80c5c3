/**
 * The operators (GET /admin/operators, any operator may read it), to show an audit actor
 * `operator:<id>` by email. Other actors (`user:<id>`, `admin-api@<ip>`, `cli`, `system`) are
 * shown as recorded.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, call } from '../../api/client.ts';
import { opsKeys } from '../../api/query-keys.ts';

export const operatorsQuery = queryOptions({ queryKey: opsKeys.operators, queryFn: () => call(api.GET('/admin/operators')) });

export function useActorName(): (actor: string) => string {
  const operators = useQuery(operatorsQuery);
  const emails = new Map((operators.data ?? []).map((operator) => [`operator:${operator.id}`, operator.email]));
  return (actor) => emails.get(actor) ?? actor;
}
