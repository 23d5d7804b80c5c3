/**
 * The dashboard's entry: providers (Mantine, TanStack Query, our i18n) around the router. A 401
 * from any query after sign-in (the session expired or was revoked) leads to the sign-in page.
 */
import '@mantine/core/styles.css';
import './styles.css';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { isUnauthorized } from './api/errors.ts';
import { queryClient } from './api/query-client.ts';
import { I18nProvider } from './i18n/context.tsx';
import { router } from './routes.tsx';
import { theme } from './theme.ts';

queryClient.getQueryCache().subscribe((event) => {
  if (event.type === 'updated' && event.action.type === 'error' && isUnauthorized(event.action.error) && router.state.location.pathname !== '/sign-in') {
    queryClient.removeQueries();
    void router.navigate({ to: '/sign-in' });
  }
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
