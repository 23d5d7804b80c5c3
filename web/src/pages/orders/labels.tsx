/** Order status and type as the person reads them: a coloured badge always carrying the word (colour is never the only cue). */
import { Badge } from '@mantine/core';
import { useI18n } from '../../i18n/context.tsx';
import type { OrderStatus } from './statuses.ts';

const COLOUR: Record<OrderStatus, string> = {
  PENDING: 'gray',
  AWAITING_PAYMENT: 'yellow',
  AWAITING_DEPOSIT: 'yellow',
  PAYMENT_RECEIVED: 'blue',
  DEPOSIT_RECEIVED: 'blue',
  SWAPPING: 'blue',
  TRANSFERRING: 'blue',
  PIX_SENDING: 'blue',
  PIX_SENT_UNCONFIRMED: 'blue',
  COMPLETED: 'green',
  REFUNDING: 'orange',
  REFUNDED: 'orange',
  EXPIRED: 'gray',
  FAILED: 'red',
};

export function OrderStatusBadge({ status }: { status: OrderStatus }) {
  const { t } = useI18n();
  return <Badge color={COLOUR[status]} variant="light" c="dark.8" tt="none">{t(`orders.status.${status}`)}</Badge>;
}
