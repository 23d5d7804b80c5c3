/**
 * A MED claim's status and defence deadline as both apps show them: the status in words on a
 * filled badge (TONE: AA contrast), and the deadline's time with, for an OPEN claim within 24 h of
 * it or past it, a badge that says so in words (not only a colour).
 */
import { Badge, Group, Text } from '@mantine/core';
import { useI18n } from '../i18n/context.tsx';
import { formatDateTime } from '../i18n/format.ts';
import { deadlineUrgency, type Dispute, type DisputeStatus } from '../lib/disputes.ts';
import { TONE } from './readable.ts';

// Whole words in a narrow table column: Mantine's badge label would shrink to an ellipsis ("Accept…").
const WHOLE = { root: { overflow: 'visible' }, label: { overflow: 'visible' } };

const STATUS_TONE: Record<DisputeStatus, string> = { OPEN: TONE.warn, DEFENDED: TONE.info, ACCEPTED: TONE.bad, REJECTED: TONE.ok, CANCELLED: TONE.neutral };

export function DisputeStatusBadge({ status }: { status: DisputeStatus }) {
  const { t } = useI18n();
  return (
    <Badge variant="filled" color={STATUS_TONE[status]} tt="none" styles={WHOLE} data-status={status}>
      {t(`disputes.status.${status}`)}
    </Badge>
  );
}

/** `now`: the instant the data was read (a render must not read the clock), e.g. the query's dataUpdatedAt. */
export function Deadline({ dispute, now }: { dispute: Pick<Dispute, 'status' | 'defenseDeadline'>; now: number }) {
  const { t } = useI18n();
  const urgency = deadlineUrgency(dispute, now);
  return (
    <Group gap={6}>
      <Text size="sm" fw={urgency ? 700 : undefined}>{formatDateTime(dispute.defenseDeadline)}</Text>
      {urgency ? (
        <Badge variant="filled" color={urgency === 'PASSED' ? TONE.bad : TONE.warn} tt="none" styles={WHOLE} data-urgency={urgency}>
          {t(`disputes.deadline.${urgency}`)}
        </Badge>
      ) : null}
    </Group>
  );
}
