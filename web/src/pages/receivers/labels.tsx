/** Status and KYC status as coloured badges with their translated names (colour is never the only cue: the word is shown; filled, for AA contrast). */
import { Badge } from '@mantine/core';
import type { components } from '../../api/schema.ts';
import { useI18n } from '../../i18n/context.tsx';

export type Receiver = components['schemas']['Receiver'];

const STATUS_COLOUR: Record<Receiver['status'], string> = { PENDING: 'gray.8', ACTIVE: 'green.9', SUSPENDED: 'orange.9', BLOCKED: 'red.9' };
const KYC_COLOUR: Record<Receiver['kycStatus'], string> = { PENDING: 'gray.8', SUBMITTED: 'blue.9', UNDER_REVIEW: 'blue.9', APPROVED: 'green.9', REJECTED: 'red.9' };

export function StatusBadge({ status }: { status: Receiver['status'] }) {
  const { t } = useI18n();
  return <Badge color={STATUS_COLOUR[status]} variant="filled">{t(`status.${status}`)}</Badge>;
}

export function KycBadge({ status }: { status: Receiver['kycStatus'] }) {
  const { t } = useI18n();
  return <Badge color={KYC_COLOUR[status]} variant="filled">{t(`kyc.${status}`)}</Badge>;
}
