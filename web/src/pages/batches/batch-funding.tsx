/**
 * Where the batch's one deposit goes (issue 43 item 3): the amount, the address as text, a QR code
 * (drawn in the page, components/qr-code.tsx) and a copy button, while the batch waits for it.
 */
import { Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import { QrCode } from '../../components/qr-code.tsx';
import { Section } from '../../components/section.tsx';
import { useI18n } from '../../i18n/context.tsx';
import { formatDateTime, formatTokenAmount } from '../../i18n/format.ts';
import type { Batch } from './labels.tsx';

export function BatchFunding({ batch, address }: { batch: Batch; address: string }) {
  const { t, language } = useI18n();
  return (
    <Section id="batch-funding-heading" title={t('batches.funding.title')}>
      <Group align="flex-start" wrap="wrap">
        <QrCode value={address} label={t('batches.funding.qr')} size={176} />
        <Stack gap="xs" style={{ flex: 1, minWidth: 260 }}>
          <Text>{t('batches.funding.text', { amount: formatTokenAmount(batch.totalCrypto, batch.token, language), until: formatDateTime(batch.ratesExpireAt) })}</Text>
          <Text fw={700} id="batch-address-label">{t('batches.funding.address')}</Text>
          <Code block aria-labelledby="batch-address-label" data-testid="batch-deposit-address" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>{address}</Code>
          <CopyButton value={address}>
            {({ copied, copy }) => (
              <Button variant="default" onClick={copy} w="fit-content">
                {copied ? t('batches.funding.copied') : t('batches.funding.copy')}
              </Button>
            )}
          </CopyButton>
        </Stack>
      </Group>
    </Section>
  );
}
