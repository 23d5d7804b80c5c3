/** The claimed order, linked: by the merchant's own external id when it has one, else by the whole id (components/entity-id.tsx). */
import { Anchor } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { EntityId } from '../../components/entity-id.tsx';
import type { Dispute } from '../../lib/disputes.ts';

export function OrderLink({ dispute }: { dispute: Pick<Dispute, 'orderId' | 'externalId'> }) {
  return (
    <Anchor renderRoot={(props) => <Link {...props} to="/orders/$id" params={{ id: dispute.orderId }} />} size="sm">
      <EntityId id={dispute.orderId} externalId={dispute.externalId} />
    </Anchor>
  );
}
