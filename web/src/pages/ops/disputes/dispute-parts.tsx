/**
 * Pieces of the MED claims pages: the status badge and the defense deadline (both apps',
 * components/dispute-badges.tsx), whether the order is held, the outcome and the MED return's
 * status in words, and the merchant by name (the first 100 of GET /admin/merchants, the orders
 * filter's query: the claim carries only the merchant's id).
 */
import { Anchor, Badge, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { api, call } from '../../../api/client.ts';
import { EntityId } from '../../../components/entity-id.tsx';
import { TONE } from '../../../components/readable.ts';
import { useI18n } from '../../../i18n/context.tsx';
import type { AdminDispute } from './disputes-search.ts';
import { opsKeys } from '../../../api/query-keys.ts';

export { Deadline, DisputeStatusBadge } from '../../../components/dispute-badges.tsx';

export function Held({ held }: { held: boolean }) {
  const { t } = useI18n();
  return held ? <Badge variant="filled" color={TONE.warn} tt="none">{t('common.yes')}</Badge> : <Text size="sm">{t('common.no')}</Text>;
}

export function Outcome({ outcome }: { outcome: AdminDispute['outcome'] }) {
  const { t } = useI18n();
  return <>{outcome ? t(`opsDisputes.outcome.${outcome}`) : t('common.none')}</>;
}

export function ReturnStatus({ status }: { status: AdminDispute['returnStatus'] }) {
  const { t } = useI18n();
  return <>{status ? t(`disputes.return.${status}`) : t('common.none')}</>;
}

/** Merchant names by id; the same query key and call as the orders page's merchant filter, so they share the cache. */
export function useMerchantNames(): Map<string, string> {
  const merchants = useQuery({
    queryKey: opsKeys.merchants.choices,
    queryFn: () => call(api.GET('/admin/merchants', { params: { query: { limit: 100 } } })),
    staleTime: 60_000,
  });
  return new Map((merchants.data?.data ?? []).map((merchant) => [merchant.id, merchant.name]));
}

/** A link to the merchant's page, by name when known, else by the whole id. */
export function MerchantLink({ id, names }: { id: string; names: Map<string, string> }) {
  return (
    <Anchor renderRoot={(props) => <Link {...props} to="/ops/merchants/$id" params={{ id }} />} size="sm">
      {names.get(id) ?? <EntityId id={id} />}
    </Anchor>
  );
}
