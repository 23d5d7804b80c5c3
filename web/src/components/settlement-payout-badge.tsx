/**
 * A settlement's PIX payment status (docs/decisions/0044), as a filled badge (TONE: AA contrast),
 * for the merchant's balances page and the back office's settlements.
 */
import { Badge } from '@mantine/core';
import type { components } from '../api/schema.ts';
import { useI18n } from '../i18n/context.tsx';
import { TONE } from './readable.ts';

export type SettlementPayoutStatus = components['schemas']['Settlement']['payoutStatus'];

const STATUS_TONE: Record<SettlementPayoutStatus, string> = {
  AWAITING_PIX_KEY: TONE.warn,
  PENDING: TONE.info,
  SENDING: TONE.info,
  SENT: TONE.info,
  PAID: TONE.ok,
  FAILED: TONE.bad,
};

export function SettlementPayoutBadge({ status }: { status: SettlementPayoutStatus }) {
  const { t } = useI18n();
  return (
    <Badge variant="filled" color={STATUS_TONE[status]} tt="none" data-testid="settlement-payout-status">
      {t(`settlementPayout.${status}`)}
    </Badge>
  );
}
