/** The placeholder of a page not built yet: its title and "em breve". Each area's page replaces it. */
import { Stack, Text, Title } from '@mantine/core';
import { useI18n } from '../i18n/context.tsx';
import type { MessageKey } from '../i18n/messages.ts';

export function ComingSoon({ title }: { title: MessageKey }) {
  const { t } = useI18n();
  return (
    <Stack>
      <Title order={1}>{t(title)}</Title>
      <Text>
        <strong>{t('common.comingSoon')}</strong>: {t('common.comingSoonText')}
      </Text>
    </Stack>
  );
}
