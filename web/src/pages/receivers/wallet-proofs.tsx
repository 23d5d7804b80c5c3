/**
 * A receiver's proven wallets (GET /receivers/{id}/wallet-ownership) and, for a role with
 * `payments.write` (what the API's writes need, src/modules/users/roles.ts), starting a proof:
 * the wallet's address → POST .../wallet-ownership/challenges answers the Sign In With Solana
 * text, which the page shows to copy with its expiry; the end customer's wallet signs that exact
 * text and the merchant pastes the base58 signature → POST .../wallet-ownership/proofs. The
 * dashboard never holds a key: the signature is made in the customer's wallet.
 */
import { Alert, Button, Card, Code, CopyButton, Group, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, call } from '../../api/client.ts';
import { isApiError } from '../../api/errors.ts';
import { fieldErrors } from '../../api/field-errors.ts';
import { useMay } from '../../api/permissions.ts';
import { keys } from '../../api/query-keys.ts';
import type { components } from '../../api/schema.ts';
import { DataTable, ListState } from '../../components/data-table.tsx';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { READABLE } from '../../components/readable.ts';
import { useI18n } from '../../i18n/context.tsx';
import { formatDateTime } from '../../i18n/format.ts';
import type { MessageKey } from '../../i18n/messages.ts';
import type { Receiver } from './labels.tsx';

type ProvenWallet = components['schemas']['ProvenWallets']['data'][number];
type Challenge = components['schemas']['WalletOwnershipChallenge'];

/** The proof's refusals a person can act on (the route's documented codes), in our words; others go to ErrorAlert. */
const PROOF_ERRORS: Partial<Record<string, MessageKey>> = {
  CHALLENGE_EXPIRED: 'walletProofs.error.CHALLENGE_EXPIRED',
  WALLET_SIGNATURE_INVALID: 'walletProofs.error.WALLET_SIGNATURE_INVALID',
  CHALLENGE_USED: 'walletProofs.error.CHALLENGE_USED',
  WALLET_PROVEN_BY_ANOTHER_PERSON: 'walletProofs.error.WALLET_PROVEN_BY_ANOTHER_PERSON',
};

function ProofError({ error, address }: { error: unknown; address: string }) {
  const { t } = useI18n();
  const key = isApiError(error) ? PROOF_ERRORS[error.code] : undefined;
  if (!key || !isApiError(error)) return <ErrorAlert error={error} />;
  return (
    <Alert color="red" title={t('common.errorTitle')} role="alert">
      <Text size="sm">{t(key, { address })}</Text>
      {error.requestId ? <Text size="xs">{t('common.requestId', { id: error.requestId })}</Text> : null}
    </Alert>
  );
}

function ProveWallet({ receiver }: { receiver: Receiver }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [address, setAddress] = useState(receiver.walletAddress ?? '');
  const [challenge, setChallenge] = useState<Challenge | null>(null);
  const [signature, setSignature] = useState('');
  const [proven, setProven] = useState<string | null>(null);

  const prove = useMutation({
    mutationFn: (current: Challenge) =>
      call(api.POST('/receivers/{id}/wallet-ownership/proofs', { params: { path: { id: receiver.id } }, body: { challengeId: current.challengeId, signature: signature.trim() } })),
    onSuccess: (proof) => {
      setChallenge(null);
      setSignature('');
      setProven(proof.walletAddress);
      void queryClient.invalidateQueries({ queryKey: keys.receivers.walletProofs(receiver.id) });
    },
  });
  const ask = useMutation({
    mutationFn: () => call(api.POST('/receivers/{id}/wallet-ownership/challenges', { params: { path: { id: receiver.id } }, body: { walletAddress: address.trim() } })),
    onSuccess: (issued) => {
      setChallenge(issued);
      setSignature('');
      setProven(null);
      prove.reset();
    },
  });
  const askErrors = fieldErrors(ask.error);
  const proveErrors = fieldErrors(prove.error);

  const submitAddress = (event: FormEvent) => {
    event.preventDefault();
    ask.mutate();
  };
  const submitSignature = (event: FormEvent) => {
    event.preventDefault();
    if (challenge) prove.mutate(challenge);
  };

  return (
    <Stack mt="md" gap="sm">
      <Title order={3} size="h4">{t('walletProofs.start')}</Title>
      <Text size="sm">{t('walletProofs.startHint')}</Text>
      {proven ? <Alert color="green" role="status">{t('walletProofs.proven', { address: proven })}</Alert> : null}
      <form onSubmit={submitAddress} aria-label={t('walletProofs.start')}>
        <Stack gap="xs">
          {ask.error && Object.keys(askErrors).length === 0 ? <ErrorAlert error={ask.error} /> : null}
          <TextInput label={t('walletProofs.walletAddress')} styles={READABLE} value={address} onChange={(event) => setAddress(event.currentTarget.value)} error={askErrors.walletAddress} autoComplete="off" spellCheck={false} />
          <Button type="submit" loading={ask.isPending} w="fit-content" variant={challenge ? 'default' : 'filled'}>
            {challenge ? t('walletProofs.newChallenge') : t('walletProofs.createChallenge')}
          </Button>
        </Stack>
      </form>
      {challenge ? (
        <form onSubmit={submitSignature} aria-label={t('walletProofs.submit')}>
          <Stack gap="xs">
            <Textarea label={t('walletProofs.message')} description={t('walletProofs.messageHint', { address: challenge.walletAddress })} styles={READABLE} value={challenge.message} readOnly autosize minRows={8} ff="monospace" />
            <Group gap="sm">
              <CopyButton value={challenge.message}>
                {({ copied, copy }) => (
                  <Button variant="default" onClick={copy}>
                    {copied ? t('walletProofs.copied') : t('walletProofs.copy')}
                  </Button>
                )}
              </CopyButton>
              <Text size="sm" data-testid="challenge-expiry">{t('walletProofs.expires', { time: formatDateTime(challenge.expiresAt) })}</Text>
            </Group>
            {prove.error && Object.keys(proveErrors).length === 0 ? <ProofError error={prove.error} address={challenge.walletAddress} /> : null}
            <TextInput
              label={t('walletProofs.signature')}
              description={t('walletProofs.signatureHint')}
              styles={READABLE}
              value={signature}
              onChange={(event) => setSignature(event.currentTarget.value)}
              error={proveErrors.signature}
              autoComplete="off"
              spellCheck={false}
              required
            />
            <Group>
              <Button type="submit" loading={prove.isPending}>{t('walletProofs.submit')}</Button>
              <Button variant="default" onClick={() => setChallenge(null)}>{t('walletProofs.cancel')}</Button>
            </Group>
          </Stack>
        </form>
      ) : null}
    </Stack>
  );
}

export function WalletProofs({ receiver }: { receiver: Receiver }) {
  const { t } = useI18n();
  const mayProve = useMay('payments.write');
  const proofs = useQuery({
    queryKey: keys.receivers.walletProofs(receiver.id),
    queryFn: () => call(api.GET('/receivers/{id}/wallet-ownership', { params: { path: { id: receiver.id } } })),
  });
  return (
    <Card withBorder component="section" aria-labelledby="wallet-proofs-heading">
      <Title order={2} size="h3" id="wallet-proofs-heading" mb="sm">{t('walletProofs.title')}</Title>
      <ListState query={proofs} isEmpty={(answer) => answer.data.length === 0} empty={t('walletProofs.empty')}>
        {(answer) => (
          <DataTable<ProvenWallet>
            caption={t('walletProofs.caption')}
            rows={answer.data}
            rowKey={(wallet) => wallet.walletAddress}
            minWidth={560}
            columns={[
              { id: 'address', header: t('walletProofs.address'), cell: (wallet) => <Code style={{ wordBreak: 'break-all' }}>{wallet.walletAddress}</Code> },
              { id: 'how', header: t('walletProofs.how'), cell: (wallet) => t(`walletProofs.method.${wallet.method}`) },
              { id: 'when', header: t('walletProofs.when'), cell: (wallet) => formatDateTime(wallet.provenAt) },
            ]}
          />
        )}
      </ListState>
      {mayProve ? <ProveWallet receiver={receiver} /> : null}
    </Card>
  );
}
