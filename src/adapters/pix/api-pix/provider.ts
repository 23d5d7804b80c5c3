/**
 * The PIX port over a PSP's API Pix (Banco Central's openapi.yaml, release 2.9.0) for money in,
 * and Efí's documented PIX-out API for money out (API Pix has no payment initiation):
 * - charges `PUT /cob/{txid}` with our txid, read back by `GET /cob/{txid}`;
 * - received PIX `GET /pix/{e2eid}`, `GET /pix?inicio=&fim=` (every page) for reconciliation;
 * - refunds `PUT` and `GET /pix/{e2eid}/devolucao/{id}`;
 * - the callback `PUT /webhook/{chave}` (registered by the reconciliation job's first pass);
 * - PIX out `PUT /v3/gn/pix/{idEnvio}` (our order id as idEnvio: a retry never pays twice),
 *   status `GET /v2/gn/pix/enviados/id-envio/{idEnvio}`;
 * - key lookup `GET /v2/gn/dict/chaves/{chave}` on the PIX-out API: the PSP simulator's model of a
 *   PSP that offers a DICT lookup (tools/psp-simulator/api-pix.ts), not BCB's API Pix nor any PSP's
 *   documented API; a PSP without it answers 404, so non-document keys are refused (orders/
 *   destination-rules.ts), which is the safe side.
 * - who paid a received PIX: not in API Pix's `Pix` object; read from Efí's extension
 *   `gnExtras.pagador` (payer.ts), on `GET /pix/{e2eid}`, `GET /cob/{txid}` and `GET /pix`.
 * - MED infractions on Efí's MED extension: `GET /v2/gn/infracoes?inicio=&fim=` and our defense
 *   `POST /v2/gn/infracoes/{idInfracao}/defesa` (`analise: "negado"`, `justificativa`); the return of
 *   an accepted claim `PUT /v2/gn/pix/{e2eid}/devolucao-med/{id}` (natureza MED_FRAUDE: API Pix's
 *   request schema allows only ORIGINAL and RETIRADA), read back by the standard `GET
 *   /pix/{e2eid}/devolucao/{id}`, whose answer names its natureza. Efí documents the two MED paths
 *   and the defense body; the fields of an infraction and the return's path are the PSP
 *   simulator's model of them (docs/architecture/disputes.md).
 * What the PSP says (motivo, problem details) is not passed on to clients: outcomes carry our own
 * wording; the PSP's own stays in PixProviderError.problem for logs.
 */
import { type PixCharge, PixChargeConflictError, PixDefenseRefusedError, type PixInfraction, type PixInfractionStatus, type PixProvider, PixPayoutRefusedError, type ReceivedPix } from '../port.ts';
import { type PspHttpClient, PixProviderError, createPspHttpClient } from './http-client.ts';
import type { ApiPixAdapterSettings } from './settings.ts';
import { pixPayerOf } from './payer.ts';

export interface ApiPixProvider extends PixProvider {
  readonly name: 'apiPix';
  /** PUT /webhook/{chave}: our callback for the receiving key. */
  registerWebhook(): Promise<void>;
  close(): void;
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const ID = /^[a-zA-Z0-9]{1,35}$/;
const PAGE_SIZE = 100;
/** Efí's PIX-out answers that refuse the payment itself (invalid or above-limit amount, invalid key). */
const REFUSED_PAYMENT = new Set([400, 422]);
/** API Pix limits `solicitacaoPagador` to 140 characters. */
const MAX_PAYER_REQUEST = 140;
/** API Pix limits `devedor.nome` to 200 characters. */
const MAX_PAYER_NAME = 200;

/** Efí's idEnvio ([a-zA-Z0-9]{1,35}) of an idempotency key such as our order's UUID. */
export function idEnvioOf(idempotencyKey: string): string {
  const id = idempotencyKey.replaceAll('-', '');
  if (!ID.test(id)) throw new PixProviderError('idempotency key cannot be an idEnvio', { retryable: false });
  return id;
}

/** The charge named by `txid` exists for another amount than the one asked. */
function chargeConflict(existing: Json, cause: unknown): PixChargeConflictError {
  return new PixChargeConflictError(`PUT /cob: charge ${String(existing.txid)} exists with amount ${String(existing.valor?.original)}`, { cause });
}

function receivedPix(pix: Json): ReceivedPix {
  const payer = pixPayerOf(pix);
  return {
    endToEndId: String(pix.endToEndId),
    txid: typeof pix.txid === 'string' ? pix.txid : null,
    amountBrl: String(pix.valor),
    paidAt: new Date(pix.horario),
    ...(payer ? { payer } : {}),
  };
}

const INFRACTION_STATUS: Record<string, PixInfractionStatus> = { ABERTA: 'OPEN', EM_DEFESA: 'DEFENDED', ACEITA: 'ACCEPTED', REJEITADA: 'REJECTED', CANCELADA: 'CANCELLED' };

/** An infraction of the MED extension; null when it is not one we can read (skipped, as unknown PIX are). */
function infractionOf(entry: Json): PixInfraction | null {
  const status = INFRACTION_STATUS[String(entry.status)];
  const reportedAt = new Date(entry.criacao);
  const defenseDeadline = new Date(entry.prazoDefesa);
  if (!status || !ID.test(entry.idInfracao) || typeof entry.endToEndId !== 'string' || typeof entry.valor !== 'string') return null;
  if (Number.isNaN(reportedAt.getTime()) || Number.isNaN(defenseDeadline.getTime())) return null;
  return { infractionId: entry.idInfracao, endToEndId: entry.endToEndId, status, reason: String(entry.motivo ?? ''), amountBrl: entry.valor, reportedAt, defenseDeadline };
}

export function createApiPixProvider(settings: ApiPixAdapterSettings, client: PspHttpClient = createPspHttpClient(settings)): ApiPixProvider {
  const api = (path: string) => `${settings.baseUrl}${path}`;
  const out = (path: string) => `${settings.payoutBaseUrl}${path}`;
  const expect = (response: { status: number; body: unknown }, what: string): Json => {
    if (response.status === 404 || typeof response.body !== 'object' || response.body === null) {
      throw new PixProviderError(`${what}: unexpected answer ${response.status}`, { status: response.status, retryable: response.status !== 404, problem: response.body });
    }
    return response.body as Json;
  };

  return {
    name: 'apiPix',

    async createCharge({ txid, amountBrl, expiresInSeconds, description, payer }): Promise<PixCharge> {
      const body: Json = { calendario: { expiracao: expiresInSeconds }, valor: { original: amountBrl }, chave: settings.receivingKey };
      if (payer) body.devedor = { [payer.documentType === 'CPF' ? 'cpf' : 'cnpj']: payer.document, nome: payer.name.slice(0, MAX_PAYER_NAME) };
      if (description) body.solicitacaoPagador = description.slice(0, MAX_PAYER_REQUEST);
      let cob: Json;
      try {
        cob = expect(await client.call('PUT', api(`/cob/${txid}`), body), 'PUT /cob');
      } catch (err) {
        // A repeat of a txid (an order created with an Idempotency-Key, retried): PSPs that answer
        // "txid already used" (400 CobOperacaoInvalida, or 409) instead of the charge are asked
        // for it; it is ours if it is for the same amount. Another amount (the first attempt's
        // charge, and the price moved before the retry) is a conflict no retry of this txid can undo.
        if (!(err instanceof PixProviderError) || (err.status !== 400 && err.status !== 409)) throw err;
        const found = await client.call('GET', api(`/cob/${txid}`));
        const existing = found.status === 200 && typeof found.body === 'object' && found.body !== null ? (found.body as Json) : undefined;
        if (!existing || existing.txid !== txid) throw err;
        if (existing.valor?.original !== amountBrl) throw chargeConflict(existing, err);
        cob = existing;
      }
      // The same conflict from a PSP that answers a repeat with the existing charge instead of refusing it.
      if (cob.txid === txid && typeof cob.valor?.original === 'string' && cob.valor.original !== amountBrl) throw chargeConflict(cob, undefined);
      if (cob.txid !== txid || typeof cob.pixCopiaECola !== 'string' || cob.valor?.original !== amountBrl) {
        throw new PixProviderError('PUT /cob: the PSP answered another charge', { retryable: false, problem: cob });
      }
      const createdAt = Date.parse(cob.calendario?.criacao ?? '') || Date.now();
      return { txid, amountBrl, pixCopiaECola: cob.pixCopiaECola, expiresAt: new Date(createdAt + Number(cob.calendario?.expiracao ?? expiresInSeconds) * 1000) };
    },

    async getReceivedPix(endToEndId) {
      const response = await client.call('GET', api(`/pix/${endToEndId}`));
      return response.status === 404 ? null : receivedPix(expect(response, 'GET /pix/{e2eid}'));
    },

    async refund({ endToEndId, refundId, amountBrl, description, nature = 'ORIGINAL' }) {
      const body = { valor: amountBrl, natureza: nature, descricao: description.slice(0, MAX_PAYER_REQUEST) };
      const url = nature === 'MED_FRAUDE' ? out(`/v2/gn/pix/${endToEndId}/devolucao-med/${refundId}`) : api(`/pix/${endToEndId}/devolucao/${refundId}`);
      const refund = expect(await client.call('PUT', url, body), 'PUT /devolucao');
      return { refundId, status: refund.status };
    },

    async listInfractions({ from, to }) {
      const query = new URLSearchParams({ inicio: from.toISOString(), fim: to.toISOString() });
      const answer = expect(await client.call('GET', out(`/v2/gn/infracoes?${query}`)), 'GET /v2/gn/infracoes');
      return ((answer.infracoes ?? []) as Json[]).map(infractionOf).filter((infraction): infraction is PixInfraction => infraction !== null);
    },

    async submitInfractionDefense({ infractionId, justification }) {
      const body = { analise: 'negado', justificativa: justification };
      try {
        expect(await client.call('POST', out(`/v2/gn/infracoes/${encodeURIComponent(infractionId)}/defesa`), body), 'POST /defesa');
      } catch (err) {
        // The PSP no longer takes a defense of it (decided, or past its deadline): no retry changes that.
        if (err instanceof PixProviderError && (err.status === 400 || err.status === 409 || err.status === 422)) throw new PixDefenseRefusedError(`POST /defesa: the PSP refused the defense (${err.status})`, { cause: err });
        throw err;
      }
    },

    async sendPix({ idempotencyKey, pixKey, amountBrl, description }) {
      const idEnvio = idEnvioOf(idempotencyKey);
      const body = { valor: amountBrl, pagador: { chave: settings.receivingKey, infoPagador: description.slice(0, MAX_PAYER_REQUEST) }, favorecido: { chave: pixKey } };
      try {
        expect(await client.call('PUT', out(`/v3/gn/pix/${idEnvio}`), body), 'PUT /v3/gn/pix');
      } catch (err) {
        // A refusal of the payment itself; not 401/403 (our credentials or scopes: fix and retry)
        // nor 409 (idEnvio already used: the first attempt may have paid).
        if (err instanceof PixProviderError && REFUSED_PAYMENT.has(err.status ?? 0)) throw new PixPayoutRefusedError(`PUT /v3/gn/pix: the PSP refused the payment (${err.status})`, { cause: err });
        throw err;
      }
      return { providerTransactionId: idEnvio };
    },

    async listReceivedPix({ from, to }) {
      const all: ReceivedPix[] = [];
      for (let page = 0; ; page++) {
        const query = new URLSearchParams({ inicio: from.toISOString(), fim: to.toISOString(), 'paginacao.paginaAtual': String(page), 'paginacao.itensPorPagina': String(PAGE_SIZE) });
        const answer = expect(await client.call('GET', api(`/pix?${query}`)), 'GET /pix');
        all.push(...((answer.pix ?? []) as Json[]).map(receivedPix));
        if (page + 1 >= Number(answer.parametros?.paginacao?.quantidadeDePaginas ?? 0)) return all;
      }
    },

    async getChargePayment(txid) {
      const response = await client.call('GET', api(`/cob/${txid}`));
      if (response.status === 404) return null;
      const cob = expect(response, 'GET /cob');
      const paid = (cob.pix as Json[] | undefined)?.[0];
      return cob.status === 'CONCLUIDA' && paid ? receivedPix(paid) : null;
    },

    async getRefund(endToEndId, refundId) {
      const response = await client.call('GET', api(`/pix/${endToEndId}/devolucao/${refundId}`));
      if (response.status === 404) return null;
      const status = expect(response, 'GET /devolucao').status;
      return status === 'NAO_REALIZADO' ? { status, reason: 'refused by the PSP' } : { status };
    },

    async getPayout(providerTransactionId) {
      const response = await client.call('GET', out(`/v2/gn/pix/enviados/id-envio/${providerTransactionId}`));
      if (response.status === 404) return null;
      const sent = expect(response, 'GET /enviados');
      if (sent.status === 'REALIZADO') return { status: 'CONFIRMED', endToEndId: String(sent.endToEndId) };
      if (sent.status === 'NAO_REALIZADO') return { status: 'FAILED', reason: 'refused by the receiving institution' };
      return { status: 'PROCESSING' };
    },

    async lookupPixKey(key) {
      const response = await client.call('GET', out(`/v2/gn/dict/chaves/${encodeURIComponent(key)}`));
      if (response.status === 404) return null;
      const holder = expect(response, 'GET /v2/gn/dict/chaves').titular as Json | undefined;
      // A masked document (DICT's `***.456.789-**`) is kept as it is: it equals no receiver's document.
      const document = holder?.cpf ?? holder?.cnpj;
      return typeof document === 'string' ? { holderDocument: document } : null;
    },

    async registerWebhook() {
      const response = await client.call('PUT', api(`/webhook/${encodeURIComponent(settings.receivingKey)}`), { webhookUrl: settings.callbackUrl });
      if (response.status === 404) throw new PixProviderError('PUT /webhook: the PSP does not know our key', { status: 404, retryable: false });
    },

    close: () => client.close(),
  };
}
