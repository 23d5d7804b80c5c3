import { queryOptions } from '@tanstack/react-query';
import { api, call } from './client.ts';
import { keys } from './query-keys.ts';

/** GET /merchant/environment: sandbox on or off, the chains and tokens orders accept; fixed while the service runs. */
export const environmentQuery = queryOptions({
  queryKey: keys.environment,
  queryFn: () => call(api.GET('/merchant/environment')),
  staleTime: Infinity,
});
