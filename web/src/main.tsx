/**
 * The dashboard's entry: providers (Mantine, TanStack Query, our i18n) around the router. A 401
 * from any query after sign-in (the session expired or was revoked) leads to the sign-in page:
 * the back office's (/ops/sign-in) for its queries (key `ops`, the operator's session), the
 * merchant's otherwise; only that side's cache is emptied.
 */
import '@mantine/core/styles.css';
import './styles.css';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { isUnauthorized } from './api/errors.ts';
import { isOpsQueryKey, queryClient } from './api/query-client.ts';
import { I18nProvider } from './i18n/context.tsx';
import { router } from './routes.tsx';
import { theme } from './theme.ts';

queryClient.getQueryCache().subscribe((event) => {
  if (event.type !== 'updated' || event.action.type !== 'error' || !isUnauthorized(event.action.error)) return;
  const ops = isOpsQueryKey(event.query.queryKey);
  const signInPage = ops ? '/ops/sign-in' : '/sign-in';
  if (router.state.location.pathname === signInPage) return;
  queryClient.removeQueries({ predicate: (query) => isOpsQueryKey(query.queryKey) === ops });
  void router.navigate({ to: signInPage });
});

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root');

createRoot(container).render(
  <StrictMode>
    <MantineProvider theme={theme} defaultColorScheme="light">
      <I18nProvider>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </I18nProvider>
    </MantineProvider>
  </StrictMode>,
);
