/**
 * The claimed order, linked: by the merchant's own external id when it has one, else by the whole
 * id. Not its first 8 characters: ids are UUID v7, whose first 8 are the creation time's high bits,
 * the same for every order made within about a minute.
 */
import { Anchor } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { Dispute } from '../../lib/disputes.ts';

export function OrderLink({ dispute }: { dispute: Pick<Dispute, 'orderId' | 'externalId'> }) {
  return (
    <Anchor renderRoot={(props) => <Link {...props} to="/orders/$id" params={{ id: dispute.orderId }} />} size="sm" ff={dispute.externalId ? undefined : 'monospace'} style={{ overflowWrap: 'anywhere' }}>
      {dispute.externalId ?? dispute.orderId}
    </Anchor>
  );
}
