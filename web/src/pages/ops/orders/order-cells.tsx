/** Small pieces of the back office's order tables: the link to an order (external id or whole id), its allowed actions, the money-held flag. */
import { Anchor, Badge, Group, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { EntityId } from '../../../components/entity-id.tsx';
import { TONE } from '../../../components/readable.ts';
import { useI18n } from '../../../i18n/context.tsx';
import type { OrderAction } from './admin-orders.ts';

/** A link to the order, named by the merchant's external id when given, else by the whole id (components/entity-id.tsx). */
export function OrderLink({ id, externalId }: { id: string; externalId?: string | null }) {
  return (
    <Anchor renderRoot={(props) => <Link {...props} to="/ops/orders/$id" params={{ id }} />} size="sm">
      <EntityId id={id} externalId={externalId} />
    </Anchor>
  );
}

export function AllowedActions({ actions }: { actions: readonly OrderAction[] }) {
  const { t } = useI18n();
  if (actions.length === 0) return <Text size="sm">{t('opsOrders.noActions')}</Text>;
  return (
    <Group gap={4}>
      {actions.map((action) => (
        <Badge key={action} variant="filled" color={TONE.neutral} tt="none">{t(`opsOrders.action.${action}`)}</Badge>
      ))}
    </Group>
  );
}

export function MoneyHeld({ held }: { held: boolean }) {
  const { t } = useI18n();
  return held ? <Badge variant="filled" color={TONE.bad} tt="none">{t('common.yes')}</Badge> : <Text size="sm">{t('common.no')}</Text>;
}
