/**
 * The event catalog (GET /webhook/events): every event the service sends, what it reports, and an
 * example payload built from its JSON Schema (example-payload.ts), with the schema itself behind a
 * disclosure. The same catalog the endpoint forms offer as event types.
 */
import { Anchor, Badge, Card, Code, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { ListState } from '../../components/data-table.tsx';
import { useI18n } from '../../i18n/context.tsx';
import { TONE } from '../../components/readable.ts';
import { exampleBody } from './example-payload.ts';
import { catalogQuery } from './webhook-data.tsx';

export function EventsPage() {
  const { t } = useI18n();
  const catalog = useQuery(catalogQuery);
  return (
    <Stack>
      <Anchor component={Link} to="/developers/webhooks">
        ← {t('webhooks.title')}
      </Anchor>
      <Title order={1}>{t('webhookEvents.title')}</Title>
      <Text>{t('webhookEvents.intro')}</Text>
      <ListState query={catalog} isEmpty={(data) => data.data.length === 0} empty={t('common.none')}>
        {(data) =>
          data.data.map((entry) => {
            const headingId = `event-${entry.name.replace(/\W/g, '-')}`;
            return (
              <Card withBorder component="section" aria-labelledby={headingId} key={entry.name}>
                <Group mb="xs">
                  <Title order={2} size="h3" id={headingId}>
                    <Code fz="inherit">{entry.name}</Code>
                  </Title>
                  <Badge variant="filled" color={TONE.neutral}>
                    {entry.category}
                  </Badge>
                  {entry.orderTypes?.map((type) => (
                    <Badge variant="filled" color={TONE.info} key={type}>
                      {type}
                    </Badge>
                  ))}
                </Group>
                <Text mb="xs">{entry.description}</Text>
                {entry.status ? (
                  <Text size="sm" mb="xs">
                    {t('webhookEvents.reports', { field: entry.statusField ?? 'status', status: entry.status })}
                  </Text>
                ) : null}
                <Text fw={700} size="sm" component="p" mb={4}>
                  {t('webhookEvents.example')}
                </Text>
                <Code block>{JSON.stringify(exampleBody(entry.name, entry.payload), null, 2)}</Code>
                <details>
                  <summary>{t('webhookEvents.schema')}</summary>
                  <Code block>{JSON.stringify(entry.payload, null, 2)}</Code>
                </details>
              </Card>
            );
          })
        }
      </ListState>
    </Stack>
  );
}
