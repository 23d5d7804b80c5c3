/**
 * The merchant's partner markup per order type (GET /markups, PUT /markups/{orderType};
 * decision 0042): a small form per type for a person who may change it (payments.write: OWNER
 * and ADMIN), the terms read-only for others; the API refuses their PUT whatever the page shows.
 * Amounts are read as decimal text (decimal-text.ts); the API judges everything again and its
 * VALIDATION_ERROR details are shown beside the field they name.
 */
import { Alert, Button, Card, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client.ts';
import type { components } from '../../api/schema.ts';
import { isApiError } from '../../api/errors.ts';
import { keys } from '../../api/query-keys.ts';
import { sessionQuery } from '../../api/session.ts';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { Loading } from '../../components/loading.tsx';
import { useI18n } from '../../i18n/context.tsx';
import { localDecimal, readAmount } from './decimal-text.ts';

type Markup = components['schemas']['MerchantMarkup'];
type OrderType = Markup['orderType'];

/** The roles holding payments.write (roles.ts); the API is the guard, this only hides the form. */
const EDITORS = new Set(['OWNER', 'ADMIN']);
const BPS = /^\d{1,4}$/;
const ERROR_STYLES = { input: { color: 'var(--mantine-color-text)' }, error: { color: 'var(--mantine-color-red-9)' } };

function MarkupForm({ markup, canEdit, onSaved }: { markup: Markup; canEdit: boolean; onSaved: (type: OrderType) => void }) {
  const { t, language } = useI18n();
  const queryClient = useQueryClient();
  const type = markup.orderType;
  const [bps, setBps] = useState(String(markup.bps));
  const [flat, setFlat] = useState(localDecimal(markup.flatBrl.toFixed(2), language));
  const [cap, setCap] = useState(markup.capBrl === null ? '' : localDecimal(markup.capBrl.toFixed(2), language));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useMutation({
    mutationFn: (body: components['schemas']['SetMarkupRequest']) => call(api.PUT('/markups/{orderType}', { params: { path: { orderType: type } }, body })),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: keys.markups });
      onSaved(type);
    },
    onError: (error) => {
      if (!isApiError(error) || !error.details) return;
      setErrors(Object.fromEntries(Object.entries(error.details).map(([key, value]) => [key.replace(/^body\./, ''), String(value)])));
    },
  });
  const submit = () => {
    const flatBrl = readAmount(flat);
    const capBrl = cap.trim() === '' ? null : readAmount(cap);
    const found: Record<string, string> = {};
    if (!BPS.test(bps.trim()) || Number(bps) > 1000) found.bps = t('fees.invalidBps');
    if (flatBrl === undefined) found.flatBrl = t('fees.invalidAmount');
    if (capBrl === undefined) found.capBrl = t('fees.invalidAmount');
    setErrors(found);
    if (Object.keys(found).length > 0 || flatBrl === undefined || capBrl === undefined) return;
    save.mutate({ bps: Number(bps), flatBrl, capBrl });
  };
  return (
    <Stack gap="xs" data-testid={`markup-${type}`}>
      <Title order={3} size="h4">
        {t('fees.markupOf', { type })}
      </Title>
      <Group align="flex-start" grow>
        <TextInput label={t('fees.bps', { type })} value={bps} onChange={(e) => setBps(e.currentTarget.value)} error={errors.bps} readOnly={!canEdit} inputMode="numeric" styles={ERROR_STYLES} />
        <TextInput label={t('fees.flat', { type })} value={flat} onChange={(e) => setFlat(e.currentTarget.value)} error={errors.flatBrl} readOnly={!canEdit} inputMode="decimal" styles={ERROR_STYLES} />
        <TextInput label={t('fees.cap', { type })} value={cap} onChange={(e) => setCap(e.currentTarget.value)} error={errors.capBrl} readOnly={!canEdit} inputMode="decimal" styles={ERROR_STYLES} />
      </Group>
      {save.error && !(isApiError(save.error) && save.error.details) ? <ErrorAlert error={save.error} /> : null}
      {canEdit ? (
        <Group>
          <Button size="xs" onClick={submit} loading={save.isPending}>
            {t('fees.saveMarkup', { type })}
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}

export function MarkupSection() {
  const { t } = useI18n();
  const session = useQuery(sessionQuery);
  const markups = useQuery({ queryKey: keys.markups, queryFn: () => call(api.GET('/markups')) });
  const [saved, setSaved] = useState<OrderType | null>(null);
  const canEdit = session.data ? EDITORS.has(session.data.user.role) : false;
  return (
    <Card withBorder component="section" aria-labelledby="markup-heading">
      <Title order={2} size="h3" id="markup-heading" mb="sm">
        {t('fees.markup')}
      </Title>
      <Text size="sm" mb="sm">
        {t('fees.markupIntro')}
      </Text>
      <div role="status">{saved ? <Alert color="green" mb="sm">{t('fees.markupSaved', { type: saved })}</Alert> : null}</div>
      {markups.error ? <ErrorAlert error={markups.error} /> : null}
      {markups.isPending ? <Loading /> : null}
      {markups.data ? (
        <Stack>
          {markups.data.map((markup) => (
            <MarkupForm key={`${markup.orderType}:${markup.updatedAt ?? ''}`} markup={markup} canEdit={canEdit} onSaved={setSaved} />
          ))}
        </Stack>
      ) : null}
    </Card>
  );
}
