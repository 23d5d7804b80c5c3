/**
 * What a page shows while its data loads: a spinner and its words in a status region, which a
 * screen reader announces. The words are visually hidden text, not an `aria-label` on Mantine's
 * spinner: that is a `span` without a role, where a label is not allowed (axe
 * aria-prohibited-attr, serious) and is not read; the spinner itself is decoration (aria-hidden).
 */
import { Center, Loader, VisuallyHidden } from '@mantine/core';
import { useI18n } from '../i18n/context.tsx';

export function Loading() {
  const { t } = useI18n();
  return (
    <Center p="xl" role="status" aria-live="polite" data-testid="loading">
      <Loader aria-hidden="true" />
      <VisuallyHidden>{t('common.loading')}</VisuallyHidden>
    </Center>
  );
}
