/**
 * The token of an emailed link (`/app/reset-password#<token>`): it travels after `#`, so no
 * server or proxy log and no Referer ever holds it. Read once, then taken out of the address
 * bar (and so out of the history) before anything else happens on the page.
 */
import { useState } from 'react';

export function useLinkToken(): string {
  const [token] = useState(() => {
    const value = window.location.hash.replace(/^#/, '');
    if (value) window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
    return value;
  });
  return token;
}
