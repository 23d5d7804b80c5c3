/**
 * A link to a dashboard page given as a path with its query ("/orders?status=FAILED"). The
 * orders pages are another area's and their routes' search parameters are typed there, so this
 * page links by address: a plain <a href> (a new tab or a copied link work), and a plain click
 * stays in the single-page app through the router's history.
 */
import { Anchor } from '@mantine/core';
import { useRouter } from '@tanstack/react-router';
import type { MouseEvent, ReactNode } from 'react';

export function AppLink({ path, children }: { path: string; children: ReactNode }) {
  const router = useRouter();
  const href = `/app${path}`;
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    router.history.push(href);
  };
  return (
    <Anchor href={href} onClick={onClick}>
      {children}
    </Anchor>
  );
}
