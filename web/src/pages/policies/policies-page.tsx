/**
 * Policies (/app/policies, issue 42): the payer, wallet ownership and destination policies an
 * operator set for this merchant (GET /merchant/policies), each as its current value in words,
 * what that means for the merchant's orders, and the other values it could take. Read-only: only
 * operators change a policy (the API has no merchant write), so the page says who to ask.
 */
import { Anchor, Badge, Card, Code, List, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { api, call } from '../../api/client.ts';
import { keys } from '../../api/query-keys.ts';
import type { components } from '../../api/schema.ts';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { Loading } from '../../components/loading.tsx';
import { TONE } from '../../components/readable.ts';
import { useI18n } from '../../i18n/context.tsx';
import { formatBrl } from '../../i18n/format.ts';
import type { MessageKey } from '../../i18n/messages.ts';

type Policies = components['schemas']['MerchantPolicies'];

/** A policy's values, in the API's order, each with its name and what it means (both keys checked by the compiler). */
type Options<V extends string> = Record<V, { label: MessageKey; text: MessageKey }>;

const PAYER: Options<Policies['payerPolicy']> = {
  ANY: { label: 'policies.payer.ANY', text: 'policies.payer.ANY.text' },
  FIRST_PARTY: { label: 'policies.payer.FIRST_PARTY', text: 'policies.payer.FIRST_PARTY.text' },
};
const WALLET: Options<Policies['walletOwnershipPolicy']> = {
  ALLOW: { label: 'policies.wallet.ALLOW', text: 'policies.wallet.ALLOW.text' },
  LIMITED: { label: 'policies.wallet.LIMITED', text: 'policies.wallet.LIMITED.text' },
  REQUIRED: { label: 'policies.wallet.REQUIRED', text: 'policies.wallet.REQUIRED.text' },
};
const DESTINATION: Options<Policies['destinationPolicy']> = {
  RECEIVER_ONLY: { label: 'policies.destination.RECEIVER_ONLY', text: 'policies.destination.RECEIVER_ONLY.text' },
  ANY: { label: 'policies.destination.ANY', text: 'policies.destination.ANY.text' },
};

function PolicyCard<V extends string>({ id, title, options, current, children }: { id: string; title: MessageKey; options: Options<V>; current: V; children?: ReactNode }) {
  const { t } = useI18n();
  return (
    <Card withBorder component="section" aria-labelledby={`${id}-heading`} data-testid={`policy-${id}`}>
      <Title order={2} size="h3" id={`${id}-heading`} mb="sm">
        {t(title)}
      </Title>
      <Stack gap="xs">
        <Text>
          {t('policies.current')}:{' '}
          <Badge color={TONE.info} variant="filled" tt="none" size="lg" data-testid={`policy-${id}-value`}>
            {t(options[current].label)}
          </Badge>{' '}
          <Code>{current}</Code>
        </Text>
        <Text>{t(options[current].text)}</Text>
        {children}
        <Title order={3} size="h5" mt="xs">
          {t('policies.options')}
        </Title>
        <List spacing={4}>
          {(Object.keys(options) as V[]).map((value) => (
            <List.Item key={value}>
              <Text span fw={700}>
                {t(options[value].label)}
              </Text>{' '}
              (<Code>{value}</Code>){value === current ? ` — ${t('policies.currentMark')}` : ''}: {t(options[value].text)}
            </List.Item>
          ))}
        </List>
        <Text size="sm">{t('policies.changedBy')}</Text>
      </Stack>
    </Card>
  );
}

export function PoliciesPage() {
  const { t, language } = useI18n();
  const policies = useQuery({ queryKey: keys.policies, queryFn: () => call(api.GET('/merchant/policies')) });
  const data = policies.data;
  return (
    <Stack>
      <Title order={1}>{t('policies.title')}</Title>
      <Text>{t('policies.intro')}</Text>
      {policies.error ? <ErrorAlert error={policies.error} /> : null}
      {policies.isPending ? <Loading /> : null}
      {data ? (
        <>
          <PolicyCard id="payer" title="policies.payer.title" options={PAYER} current={data.payerPolicy} />
          <PolicyCard id="wallet" title="policies.wallet.title" options={WALLET} current={data.walletOwnershipPolicy}>
            {data.walletOwnershipPolicy === 'LIMITED' && data.unprovenWalletLimitBrl !== null ? (
              <Text fw={700}>{t('policies.wallet.limit', { amount: formatBrl(data.unprovenWalletLimitBrl, language) })}</Text>
            ) : null}
            {data.walletOwnershipPolicy === 'ALLOW' ? null : (
              <Text>
                {t('policies.wallet.howToProve')}{' '}
                <Anchor component={Link} to="/receivers">
                  {t('policies.wallet.receiversLink')}
                </Anchor>
              </Text>
            )}
          </PolicyCard>
          <PolicyCard id="destination" title="policies.destination.title" options={DESTINATION} current={data.destinationPolicy} />
        </>
      ) : null}
    </Stack>
  );
}
