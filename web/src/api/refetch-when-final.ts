import { useEffect, useRef } from 'react';

/**
 * A list that stops refreshing once its record is final (an order's timeline, a batch's lines)
 * reads itself once more when the record turns final while the page is open: a read made just
 * before would otherwise stay without the last change. Not on a page opened on a final record.
 */
export function useRefetchWhenFinal(final: boolean, refetch: () => unknown): void {
  const wasFinal = useRef(final);
  useEffect(() => {
    if (final && !wasFinal.current) void refetch();
    wasFinal.current = final;
  }, [final, refetch]);
}
