/** Status and KYC status as coloured badges with their translated names (colour is never the only cue: the word is shown). */
import { Badge } from '@mantine/core';
import type { components } from '../../api/schema.ts';
import { useI18n } from '../../i18n/context.tsx';

export type Receiver = components['schemas']['Receiver'];

const STATUS_COLOUR: Record<Receiver['status'], string> = { PENDING: 'gray', ACTIVE: 'green', SUSPENDED: 'orange', BLOCKED: 'red' };
const KYC_COLOUR: Record<Receiver['kycStatus'], string> = { PENDING: 'gray', SUBMITTED: 'blue', UNDER_REVIEW: 'blue', APPROVED: 'green', REJECTED: 'red' };

export function StatusBadge({ status }: { status: Receiver['status'] }) {
  const { t } = useI18n();
  return <Badge color={STATUS_COLOUR[status]} variant="light">{t(`status.${status}`)}</Badge>;
}

export function KycBadge({ status }: { status: Receiver['kycStatus'] }) {
  const { t } = useI18n();
  return <Badge color={KYC_COLOUR[status]} variant="light">{t(`kyc.${status}`)}</Badge>;
}
