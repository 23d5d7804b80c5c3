/** Who is signed in: email, role and merchant (GET /auth/sessions/current and GET /merchant). */
import { Box, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api, call } from '../../api/client.ts';
import type { User } from '../../api/session.ts';
import { useI18n } from '../../i18n/context.tsx';
import type { MessageKey } from '../../i18n/messages.ts';
import { keys } from '../../api/query-keys.ts';

export const roleLabel = (role: User['role']): MessageKey => `account.role.${role}`;

export function WhoAmISection({ user }: { user: User }) {
  const { t } = useI18n();
  // The same query (and key) as the header's merchant name: one request for both.
  const merchant = useQuery({ queryKey: keys.merchant, queryFn: () => call(api.GET('/merchant')) });
  const rows: [MessageKey, string][] = [
    ['account.email', user.email],
    ['account.role', t(roleLabel(user.role))],
    ['account.merchant', merchant.data?.name ?? t('common.none')],
    ['account.merchantId', user.merchantId],
  ];

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="account-who">
      <Stack gap="sm">
        <Title order={2} id="account-who">
          {t('account.whoAmI')}
        </Title>
        <Box component="dl" m={0}>
          {rows.map(([label, value]) => (
            <Box key={label} mb="xs">
              <Text component="dt" size="sm" fw={600}>
                {t(label)}
              </Text>
              <Text component="dd" m={0} style={{ wordBreak: 'break-all' }}>
                {value}
              </Text>
            </Box>
          ))}
        </Box>
      </Stack>
    </Paper>
  );
}
