/**
 * What an audit entry changed, from its `details`: `before` and `after` where the entry keeps a
 * state; a status change's `from` and `to` shown as before and after too (the KYC decisions);
 * anything else (a reason, the merchant) as short JSON. Never a secret: the API keeps none there.
 * Both apps' audit logs and the KYC history show it; each names before and after in its own words.
 */
import { Code, Stack, Text } from '@mantine/core';
import { useI18n } from '../i18n/context.tsx';

type Details = Record<string, unknown>;

const json = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

export function AuditChange({ details, before: beforeLabel, after: afterLabel }: { details: Details; before: string; after: string }) {
  const { t } = useI18n();
  const before = details.before ?? details.from;
  const after = details.after ?? details.to;
  const rest = Object.entries(details).filter(([key]) => !['before', 'after', 'from', 'to'].includes(key));
  if (before === undefined && after === undefined && rest.length === 0) return <>{t('common.none')}</>;
  return (
    <Stack gap={2}>
      {before !== undefined ? (
        <Text size="xs">
          {beforeLabel}: <Code style={{ wordBreak: 'break-all' }}>{json(before)}</Code>
        </Text>
      ) : null}
      {after !== undefined ? (
        <Text size="xs">
          {afterLabel}: <Code style={{ wordBreak: 'break-all' }}>{json(after)}</Code>
        </Text>
      ) : null}
      {rest.map(([key, value]) => (
        <Text size="xs" key={key}>
          {key}: <Code style={{ wordBreak: 'break-all' }}>{json(value)}</Code>
        </Text>
      ))}
    </Stack>
  );
}
