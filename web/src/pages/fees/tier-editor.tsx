/**
 * The form that replaces one order type's fee tiers (PUT /fee-tiers/{orderType}). Each tier
 * starts where the previous one ends (the API's contiguity rule), so a person types only each
 * tier's upper bound and fee; the first starts at 0. Obvious mistakes (not an amount, a
 * percentage outside 0–100, an upper bound not above the start) are caught here; everything
 * else is the API's to judge, and its VALIDATION_ERROR details (`body.<i>.<field>`) are shown
 * beside the field they name.
 */
import { Alert, Button, Group, List, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client.ts';
import type { components } from '../../api/schema.ts';
import { isApiError } from '../../api/errors.ts';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { useI18n } from '../../i18n/context.tsx';
import { formatBrl } from '../../i18n/format.ts';
import { cents, fractionToPercent, localDecimal, percentToFraction, readAmount } from './decimal-text.ts';
import { keys } from '../../api/query-keys.ts';

type FeeTier = components['schemas']['FeeTier'];
type OrderType = FeeTier['orderType'];
type Row = { max: string; fee: string };
/** Field errors keyed `<index>.<field>` (the API's `body.` prefix removed), and `body` for the whole array. */
type Errors = Record<string, string>;

/** Mantine paints an invalid input's text and message red.6, under 4.5:1 on white: text colour and red.9 instead. */
const ERROR_STYLES = { input: { color: 'var(--mantine-color-text)' }, error: { color: 'var(--mantine-color-red-9)' } };

export function TierEditor({ orderType, tiers, onDone }: { orderType: OrderType; tiers: FeeTier[]; onDone: (saved: boolean) => void }) {
  const { t, language } = useI18n();
  const queryClient = useQueryClient();
  const [rows, setRows] = useState<Row[]>(() =>
    tiers.map((tier) => ({
      max: tier.maxVolumeBrl === null ? '' : localDecimal(tier.maxVolumeBrl.toFixed(2), language),
      fee: localDecimal(fractionToPercent(tier.merchantFeePercentage), language),
    })),
  );
  const [errors, setErrors] = useState<Errors>({});

  const save = useMutation({
    mutationFn: (body: components['schemas']['MerchantFeeTierInput'][]) => call(api.PUT('/fee-tiers/{orderType}', { params: { path: { orderType } }, body })),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: keys.feeTiers });
      onDone(true);
    },
    onError: (error) => {
      if (!isApiError(error) || !error.details) return;
      setErrors(Object.fromEntries(Object.entries(error.details).map(([key, value]) => [key.replace(/^body\.?/, '') || 'body', String(value)])));
    },
  });

  // Where each tier starts: 0, then the previous tier's upper bound as typed (when it reads).
  const starts = rows.map((_, index) => (index === 0 ? '0.00' : readAmount(rows[index - 1]!.max)));

  const submit = () => {
    const found: Errors = {};
    const body = rows.map((row, index) => {
      const min = starts[index];
      const last = index === rows.length - 1;
      let max: string | null = null;
      if (row.max.trim() === '') {
        if (!last) found[`${index}.maxVolumeBrl`] = t('fees.onlyLastOpen');
      } else {
        const read = readAmount(row.max);
        if (!read) found[`${index}.maxVolumeBrl`] = t('fees.invalidAmount');
        else if (min && cents(read) <= cents(min)) found[`${index}.maxVolumeBrl`] = t('fees.maxNotAbove');
        max = read ?? null;
      }
      const fee = percentToFraction(row.fee);
      if (!fee) found[`${index}.merchantFeePercentage`] = t('fees.invalidPercent');
      return { minVolumeBrl: min ?? '0', maxVolumeBrl: max, merchantFeePercentage: fee ?? '0' };
    });
    setErrors(found);
    if (Object.keys(found).length === 0) save.mutate(body);
  };

  const change = (index: number, field: keyof Row, value: string) => setRows(rows.map((row, i) => (i === index ? { ...row, [field]: value } : row)));
  const fieldKeys = new Set(rows.flatMap((_, index) => [`${index}.minVolumeBrl`, `${index}.maxVolumeBrl`, `${index}.merchantFeePercentage`]));
  const otherErrors = Object.entries(errors).filter(([key]) => !fieldKeys.has(key));

  return (
    <form
      noValidate
      aria-label={t('fees.edit', { type: orderType })}
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Stack>
      {save.error && !(isApiError(save.error) && save.error.details) ? <ErrorAlert error={save.error} /> : null}
      {otherErrors.length > 0 || (save.error && isApiError(save.error) && save.error.details) ? (
        <Alert color="red" role="alert" title={t('fees.apiRefused')}>
          <Text size="sm">{isApiError(save.error) ? save.error.message : null}</Text>
          {otherErrors.length > 0 ? (
            <List size="sm">
              {otherErrors.map(([key, message]) => (
                <List.Item key={key}>{message}</List.Item>
              ))}
            </List>
          ) : null}
        </Alert>
      ) : null}
      {rows.map((row, index) => {
        const n = index + 1;
        const start = starts[index];
        return (
          <fieldset key={index} style={{ border: '1px solid #ced4da', borderRadius: 4, padding: 12 }}>
            <legend>{t('fees.tier', { n })}</legend>
            <Text size="sm" mb="xs">
              {t('fees.minOf', { amount: start ? formatBrl(start, language) : '?' })}
            </Text>
            {errors[`${index}.minVolumeBrl`] ? (
              <Text size="sm" c="red.9" mb="xs">
                {errors[`${index}.minVolumeBrl`]}
              </Text>
            ) : null}
            <Group align="start" grow>
              <TextInput
                label={t('fees.maxLabel', { n })}
                inputMode="decimal"
                value={row.max}
                onChange={(event) => change(index, 'max', event.currentTarget.value)}
                error={errors[`${index}.maxVolumeBrl`]}
                styles={ERROR_STYLES}
              />
              <TextInput
                label={t('fees.feeLabel', { n })}
                inputMode="decimal"
                value={row.fee}
                onChange={(event) => change(index, 'fee', event.currentTarget.value)}
                error={errors[`${index}.merchantFeePercentage`]}
                styles={ERROR_STYLES}
              />
            </Group>
            {rows.length > 1 ? (
              <Button variant="default" size="xs" mt="xs" onClick={() => setRows(rows.filter((_, i) => i !== index))}>
                {t('fees.removeTier', { n })}
              </Button>
            ) : null}
          </fieldset>
        );
      })}
      <Group>
        <Button variant="default" onClick={() => setRows([...rows, { max: '', fee: rows.at(-1)?.fee ?? '0' }])}>
          {t('fees.addTier')}
        </Button>
        <Button type="submit" loading={save.isPending}>
          {t('fees.save')}
        </Button>
        <Button variant="default" onClick={() => onDone(false)}>
          {t('fees.cancel')}
        </Button>
      </Group>
      </Stack>
    </form>
  );
}
