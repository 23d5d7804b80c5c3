/** The merchant's receivers for pickers (filter, new PAYIN): the newest 100, GET /receivers's largest page. */
import { queryOptions } from '@tanstack/react-query';
import { api, call } from '../../api/client.ts';
import { keys } from '../../api/query-keys.ts';

export const receiverChoicesQuery = queryOptions({
  queryKey: keys.receivers.choices,
  queryFn: () => call(api.GET('/receivers', { params: { query: { page: 1, limit: 100 } } })),
  staleTime: 30_000,
});
