/** What a page shows while its data loads: a labelled spinner a screen reader announces. */
import { Center, Loader } from '@mantine/core';
import { useI18n } from '../i18n/context.tsx';

export function Loading() {
  const { t } = useI18n();
  return (
    <Center p="xl" role="status" aria-live="polite">
      <Loader aria-label={t('common.loading')} />
    </Center>
  );
}
