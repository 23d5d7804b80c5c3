/**
 * One receiver: identity (editable with `payments.write`), KYC status (with the rejection reason,
 * and the sandbox's approval button), its limits and today's usage (receiver-limits.tsx), and its
 * wallet: its own address, or the one the platform manages for it.
 */
import { Anchor, Button, Card, Code, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { api, call } from '../../api/client.ts';
import { useMay } from '../../api/permissions.ts';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { Loading } from '../../components/loading.tsx';
import { useI18n } from '../../i18n/context.tsx';
import { formatDateTime } from '../../i18n/format.ts';
import { KycBadge, StatusBadge } from './labels.tsx';
import { ReceiverEditForm } from './receiver-edit.tsx';
import { LimitsCard } from './receiver-limits.tsx';
import { SandboxKyc } from './sandbox-kyc.tsx';
import { WalletProofs } from './wallet-proofs.tsx';
import { Facts } from '../../components/facts.tsx';
import { keys } from '../../api/query-keys.ts';

export function ReceiverPage() {
  const { t } = useI18n();
  const { id = '' } = useParams({ strict: false });
  const mayWrite = useMay('payments.write');
  const [editing, setEditing] = useState(false);
  const receiver = useQuery({ queryKey: keys.receivers.detail(id), queryFn: () => call(api.GET('/receivers/{id}', { params: { path: { id } } })) });
  const none = t('common.none');

  return (
    <Stack>
      <Anchor component={Link} to="/receivers">
        ← {t('common.back')}
      </Anchor>
      {receiver.error ? <ErrorAlert error={receiver.error} /> : null}
      {receiver.isPending ? <Loading /> : null}
      {receiver.data ? (
        <>
          <Title order={1}>{t('receivers.detailTitle', { name: receiver.data.name })}</Title>
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <Card withBorder component="section" aria-labelledby="identity-heading">
              <Group justify="space-between" mb="sm">
                <Title order={2} size="h3" id="identity-heading">{t('receivers.identity')}</Title>
                {editing ? null : (
                  <Button size="xs" variant="default" onClick={() => setEditing(true)} disabled={!mayWrite}>
                    {t('receivers.edit')}
                  </Button>
                )}
              </Group>
              {editing ? <ReceiverEditForm receiver={receiver.data} onDone={() => setEditing(false)} /> : null}
              {editing ? null : <Facts
                rows={[
                  [t('receivers.document'), `${receiver.data.documentType} ${receiver.data.document}`],
                  [t('receivers.type'), receiver.data.type],
                  [t('receivers.email'), receiver.data.email],
                  [t('receivers.phone'), receiver.data.phone ?? none],
                  [t('receivers.status'), <StatusBadge status={receiver.data.status} />],
                  [t('receivers.createdAt'), formatDateTime(receiver.data.createdAt)],
                ]}
              />}
            </Card>
            <Card withBorder component="section" aria-labelledby="kyc-heading">
              <Title order={2} size="h3" id="kyc-heading" mb="sm">{t('receivers.kycStatus')}</Title>
              <Facts
                rows={[
                  [t('receivers.kycStatus'), <KycBadge status={receiver.data.kycStatus} />],
                  [t('receivers.kycSubmittedAt'), receiver.data.kycSubmittedAt ? formatDateTime(receiver.data.kycSubmittedAt) : none],
                  [t('receivers.kycReviewedAt'), receiver.data.kycReviewedAt ? formatDateTime(receiver.data.kycReviewedAt) : none],
                  [t('receivers.kycRejectionReason'), receiver.data.kycRejectionReason ?? none],
                ]}
              />
              <SandboxKyc receiver={receiver.data} />
            </Card>
            <Card withBorder component="section" aria-labelledby="limits-heading">
              <LimitsCard receiverId={id} />
            </Card>
            <Card withBorder component="section" aria-labelledby="wallet-heading">
              <Title order={2} size="h3" id="wallet-heading" mb="sm">{t('receivers.wallet')}</Title>
              {receiver.data.walletAddress ? (
                <Facts
                  rows={[
                    [t('receivers.walletAddress'), <Code style={{ wordBreak: 'break-all' }}>{receiver.data.walletAddress}</Code>],
                    [t('receivers.managedWallet'), receiver.data.hasManagedWallet ? t('common.yes') : t('common.no')],
                  ]}
                />
              ) : (
                <Text>{t('receivers.noWallet')}</Text>
              )}
            </Card>
          </SimpleGrid>
          <WalletProofs receiver={receiver.data} />
        </>
      ) : null}
    </Stack>
  );
}
