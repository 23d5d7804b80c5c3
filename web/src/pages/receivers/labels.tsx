/** Status and KYC status as coloured badges with their translated names (colour is never the only cue: the word is shown; filled, for AA contrast). */
import { Badge } from '@mantine/core';
import type { components } from '../../api/schema.ts';
import { TONE } from '../../components/readable.ts';
import { useI18n } from '../../i18n/context.tsx';

export type Receiver = components['schemas']['Receiver'];

const STATUS_COLOUR: Record<Receiver['status'], string> = { PENDING: TONE.neutral, ACTIVE: TONE.ok, SUSPENDED: TONE.warn, BLOCKED: TONE.bad };
const KYC_COLOUR: Record<Receiver['kycStatus'], string> = { PENDING: TONE.neutral, SUBMITTED: TONE.info, UNDER_REVIEW: TONE.info, APPROVED: TONE.ok, REJECTED: TONE.bad };

export function StatusBadge({ status }: { status: Receiver['status'] }) {
  const { t } = useI18n();
  return <Badge color={STATUS_COLOUR[status]} variant="filled">{t(`status.${status}`)}</Badge>;
}

export function KycBadge({ status }: { status: Receiver['kycStatus'] }) {
  const { t } = useI18n();
  return <Badge color={KYC_COLOUR[status]} variant="filled">{t(`kyc.${status}`)}</Badge>;
}
