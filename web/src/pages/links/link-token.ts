/**
 * The token of an emailed link (`/app/reset-password#<token>`): it travels after `#`, so no
 * server or proxy log and no Referer ever holds it. Read at the first render, then taken out of
 * the address bar (and so out of the history) once the page is shown. The state initialiser only
 * reads: React may call it twice (StrictMode), and both calls must see the fragment.
 */
import { useEffect, useState } from 'react';

export function useLinkToken(): string {
  const [token] = useState(() => window.location.hash.replace(/^#/, ''));
  useEffect(() => {
    if (window.location.hash) window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
  }, []);
  return token;
}
