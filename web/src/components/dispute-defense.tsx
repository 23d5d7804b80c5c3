/**
 * A MED claim's defence as it was submitted to the PSP, for both apps: when, the justification
 * and each piece of evidence. Everything the merchant wrote is shown as text: an evidence address
 * becomes a link only when it is http(s), opened in a new tab without an opener or a referrer.
 */
import { Anchor, Code, List, Stack, Text, Title } from '@mantine/core';
import { useI18n } from '../i18n/context.tsx';
import { formatDateTime } from '../i18n/format.ts';
import { safeHttpUrl, type Dispute } from '../lib/disputes.ts';

type Defense = NonNullable<Dispute['defense']>;

export const PRE_WRAP = { whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' } as const;

function EvidenceItem({ evidence }: { evidence: Defense['evidence'][number] }) {
  const { t } = useI18n();
  const href = evidence.url ? safeHttpUrl(evidence.url) : null;
  return (
    <List.Item>
      <Text size="sm" style={PRE_WRAP}>{evidence.description}</Text>
      {evidence.url ? (
        href ? (
          <Anchor href={href} target="_blank" rel="noopener noreferrer" size="sm" style={{ overflowWrap: 'anywhere' }}>{evidence.url}</Anchor>
        ) : (
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>{evidence.url}</Text>
        )
      ) : null}
      {evidence.sha256 ? <Text size="sm">{t('disputes.evidence.sha256')} <Code style={{ wordBreak: 'break-all' }}>{evidence.sha256}</Code></Text> : null}
    </List.Item>
  );
}

/** `none`: what to say when there is no defence (the operator and the merchant say it differently). */
export function SubmittedDefense({ defense, none }: { defense: Dispute['defense']; none: string }) {
  const { t } = useI18n();
  if (!defense) return <Text>{none}</Text>;
  return (
    <Stack gap="sm" data-testid="submitted-defense">
      <Text size="sm">{t('disputes.defense.submittedAt', { at: formatDateTime(defense.submittedAt) })}</Text>
      <Text style={PRE_WRAP}>{defense.justification}</Text>
      <Title order={3} size="h4">{t('disputes.defense.evidence')}</Title>
      {defense.evidence.length === 0 ? (
        <Text size="sm">{t('disputes.defense.noEvidence')}</Text>
      ) : (
        <List spacing="xs">
          {defense.evidence.map((evidence, index) => <EvidenceItem key={index} evidence={evidence} />)}
        </List>
      )}
    </Stack>
  );
}
