/**
 * The one TanStack Query client. A 4xx is not retried (asking again gives the same answer);
 * a network failure or a 5xx is retried twice.
 */
import { QueryClient, type QueryKey } from '@tanstack/react-query';
import { isApiError } from './errors.ts';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 15_000,
      retry: (failures, error) => failures < 2 && !(isApiError(error) && error.status >= 400 && error.status < 500),
    },
  },
});

/** The first part of every back-office query key (the operator's session: api/operator-session.ts). */
export const OPS_KEY = 'ops';

export const isOpsQueryKey = (key: QueryKey): boolean => key[0] === OPS_KEY;
