/** Any /app path no route matches. */
import { Anchor, Stack, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useI18n } from '../i18n/context.tsx';

export function NotFoundPage() {
  const { t } = useI18n();
  return (
    <Stack component="main" p="xl">
      <Title order={1}>{t('notFound.title')}</Title>
      <Anchor component={Link} to="/">
        {t('nav.overview')}
      </Anchor>
    </Stack>
  );
}
