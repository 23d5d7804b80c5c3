/**
 * The API Pix endpoints the service uses (Banco Central's openapi.yaml, release 2.9.0), and
 * Efí's PIX-out endpoints (`PUT /v3/gn/pix/{idEnvio}`, `GET /v2/gn/pix/enviados/id-envio/{idEnvio}`),
 * over the simulator's state. Answers are shaped after the document's schemas (CobGerada,
 * CobCompleta, Pix, Devolucao, Problema); errors are problem+json.
 */
import { randomInt, randomUUID } from 'node:crypto';
import { createDynamicPix, hasError } from 'pix-utils';
import type { Faults } from './faults.ts';
import type { Notifier } from './notifier.ts';
import type { Charge, Infraction, Payer, ReceivedPix, Refund, SentPix, Store } from './store.ts';

export class Problem extends Error {
  readonly status: number;
  readonly type: string;
  readonly title: string;
  readonly detail: string | undefined;
  constructor(status: number, type: string, title: string, detail?: string) {
    super(title);
    this.status = status;
    this.type = type;
    this.title = title;
    this.detail = detail;
  }
}

/** A devedor or control-API payer as Efí's `pagador`: a name and exactly one of cpf or cnpj. */
export function payerOf(value: Record<string, unknown> | undefined | null): Payer | undefined {
  if (!value) return undefined;
  const nome = typeof value.nome === 'string' ? value.nome : '';
  if (typeof value.cpf === 'string' && value.cnpj === undefined) return { nome, cpf: value.cpf };
  if (typeof value.cnpj === 'string' && value.cpf === undefined) return { nome, cnpj: value.cnpj };
  return undefined;
}

/** The top-level EMV fields of a BR Code (ID → value); the CRC is not checked. */
function emvFields(code: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (let at = 0; at + 4 <= code.length; ) {
    const length = Number(code.slice(at + 2, at + 4));
    if (!Number.isInteger(length)) break;
    fields[code.slice(at, at + 2)] = code.slice(at + 4, at + 4 + length);
    at += 4 + length;
  }
  return fields;
}

export interface Reply {
  status: number;
  body?: unknown;
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const random = (n: number) => Array.from({ length: n }, () => ALNUM[randomInt(ALNUM.length)]).join('');
const ISPB = '99999998';
const utcMinute = (at: Date) => at.toISOString().replace(/[-:T]/g, '').slice(0, 12);
const newE2e = (prefix: string, at: Date) => `${prefix}${ISPB}${utcMinute(at)}${random(11)}`;
const AMOUNT = /^\d{1,10}\.\d{2}$/;
const TXID = /^[a-zA-Z0-9]{26,35}$/;
const ID = /^[a-zA-Z0-9]{1,35}$/;
const invalid = (detail: string) => new Problem(400, 'https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida', 'Cobrança inválida.', detail);
const notFound = (what: string) => new Problem(404, 'https://pix.bcb.gov.br/api/v2/error/NaoEncontrado', 'Não Encontrado', `${what} não encontrado.`);

export function createApiPix(deps: { store: Store; faults: Faults; notifier: Notifier; host: string; settleDelayMs: number; log: (message: string) => void }) {
  const { store, faults, notifier } = deps;
  const { state } = store;

  const cobView = (c: Charge) => ({
    calendario: { criacao: c.criacao, expiracao: c.expiracao },
    txid: c.txid,
    revisao: 0,
    loc: { id: c.locId, txid: c.txid, location: c.location, tipoCob: 'cob', criacao: c.criacao },
    location: c.location,
    status: c.status,
    ...(c.devedor ? { devedor: c.devedor } : {}),
    valor: { original: c.valor },
    chave: c.chave,
    ...(c.solicitacaoPagador ? { solicitacaoPagador: c.solicitacaoPagador } : {}),
    pixCopiaECola: c.pixCopiaECola,
    ...(c.paidBy ? { pix: [pixView(state.pix[c.paidBy]!)] } : {}),
  });
  const refundView = (r: Refund) => ({
    id: r.id,
    rtrId: r.rtrId,
    valor: r.valor,
    horario: { solicitacao: r.solicitacao, ...(r.liquidacao ? { liquidacao: r.liquidacao } : {}) },
    status: r.status,
    ...(r.natureza ? { natureza: r.natureza } : {}),
    ...(r.descricao ? { descricao: r.descricao } : {}),
    ...(r.motivo ? { motivo: r.motivo } : {}),
  });
  /** A Pix; `only`: as a refund's notification names it (the one fault-shaped answer: GET answers stay valid). */
  const pixView = (p: ReceivedPix, only?: Refund) => {
    const refunds = only ? [only] : p.devolucoes;
    const devolucoes = refunds.length === 0 ? {} : { devolucoes: faults.devolucoesAsObject && only ? refundView(only) : refunds.map(refundView) };
    // Who paid: not in API Pix's Pix object; Efí reports it in its extension `gnExtras.pagador` (extra properties are allowed by the document).
    const gnExtras = p.pagador ? { gnExtras: { pagador: p.pagador } } : {};
    return { endToEndId: p.endToEndId, txid: p.txid, valor: p.valor, chave: p.chave, horario: p.horario, ...gnExtras, ...devolucoes };
  };

  function putCob(txid: string, body: Record<string, any>): Reply { // eslint-disable-line @typescript-eslint/no-explicit-any
    if (!TXID.test(txid)) throw invalid('txid deve ter de 26 a 35 caracteres alfanuméricos.');
    const valor = body?.valor?.original;
    const expiracao = body?.calendario?.expiracao ?? 86400;
    if (typeof valor !== 'string' || !AMOUNT.test(valor) || Number(valor) <= 0) throw invalid('valor.original não respeita o schema.');
    if (typeof body.chave !== 'string' || body.chave.length === 0) throw invalid('chave não respeita o schema.');
    if (!Number.isInteger(expiracao) || expiracao <= 0) throw invalid('calendario.expiracao não respeita o schema.');
    const existing = state.charges[txid];
    if (existing) {
      if (existing.valor !== valor || existing.chave !== body.chave) throw invalid(`txid ${txid} já utilizado por outra cobrança.`);
      return { status: 201, body: cobView(existing) };
    }
    const locId = state.nextLocId++;
    const location = `${deps.host}/qr/v2/${randomUUID().replaceAll('-', '')}`;
    const code = createDynamicPix({ merchantName: 'PSP SIMULATOR', merchantCity: 'SAO PAULO', url: location });
    if (hasError(code)) throw new Error('cannot write a BR Code');
    const charge: Charge = {
      txid,
      criacao: new Date().toISOString(),
      expiracao,
      valor,
      chave: body.chave,
      status: 'ATIVA',
      locId,
      location,
      pixCopiaECola: code.toBRCode(),
      ...(body.devedor ? { devedor: body.devedor } : {}),
      ...(body.solicitacaoPagador ? { solicitacaoPagador: body.solicitacaoPagador } : {}),
    };
    state.charges[txid] = charge;
    store.save();
    return { status: 201, body: cobView(charge) };
  }

  /**
   * The payer's bank pays a charge (control API): the PIX is recorded, then notified. `pagador`:
   * who pays (default the charge's devedor, as a customer paying their own charge); null: the PSP
   * does not report the payer.
   */
  function pay(charge: Charge, valor = charge.valor, pagador?: Payer | null): ReceivedPix {
    if (charge.paidBy) return state.pix[charge.paidBy]!;
    const now = new Date();
    const payer = pagador === undefined ? payerOf(charge.devedor) : (pagador ?? undefined);
    const pix: ReceivedPix = { endToEndId: newE2e('E', now), txid: charge.txid, valor, chave: charge.chave, horario: now.toISOString(), devolucoes: [], ...(payer ? { pagador: payer } : {}) };
    state.pix[pix.endToEndId] = pix;
    charge.status = 'CONCLUIDA';
    charge.paidBy = pix.endToEndId;
    store.save();
    notifier.notify(state.webhooks[charge.chave], [pixView(pix)]);
    return pix;
  }

  /**
   * A PIX paid to a static BR Code (a standing charge): its key (26/01), txid (62/05) and amount
   * (54, else `valor`) read from the code. Each call is a new PIX, notified with the code's txid.
   */
  function payStatic(code: string, valor: string | undefined, pagador: Payer | undefined): ReceivedPix {
    const fields = emvFields(code);
    const chave = emvFields(fields['26'] ?? '')['01'];
    const txid = emvFields(fields['62'] ?? '')['05'];
    const amount = fields['54'] ?? valor;
    if (!chave || !txid || txid === '***' || !amount || !AMOUNT.test(amount)) throw invalid('a static code with a key, a txid and an amount (or valor) is needed');
    const now = new Date();
    const pix: ReceivedPix = { endToEndId: newE2e('E', now), txid, valor: amount, chave, horario: now.toISOString(), devolucoes: [], ...(pagador ? { pagador } : {}) };
    state.pix[pix.endToEndId] = pix;
    store.save();
    notifier.notify(state.webhooks[chave], [pixView(pix)]);
    return pix;
  }

  function listPix(query: URLSearchParams): Reply {
    const inicio = Date.parse(query.get('inicio') ?? '');
    const fim = Date.parse(query.get('fim') ?? '');
    if (Number.isNaN(inicio) || Number.isNaN(fim)) throw new Problem(400, 'https://pix.bcb.gov.br/api/v2/error/PixConsultaInvalida', 'Consulta inválida.', 'inicio e fim são obrigatórios.');
    const page = Number(query.get('paginacao.paginaAtual') ?? 0);
    const size = Math.min(Number(query.get('paginacao.itensPorPagina') ?? 100), 1000);
    const all = Object.values(state.pix).filter((p) => Date.parse(p.horario) >= inicio && Date.parse(p.horario) <= fim).sort((a, b) => a.horario.localeCompare(b.horario));
    return {
      status: 200,
      body: {
        parametros: {
          inicio: new Date(inicio).toISOString(),
          fim: new Date(fim).toISOString(),
          paginacao: { paginaAtual: page, itensPorPagina: size, quantidadeDePaginas: Math.max(1, Math.ceil(all.length / size)), quantidadeTotalDeItens: all.length },
        },
        pix: all.slice(page * size, page * size + size).map((p) => pixView(p)),
      },
    };
  }

  /** `natureza` MED_FRAUDE: the return of an accepted infraction of this PIX (Efí's MED extension). */
  function putRefund(e2eid: string, id: string, body: Record<string, any>, natureza?: 'MED_FRAUDE'): Reply { // eslint-disable-line @typescript-eslint/no-explicit-any
    const pix = state.pix[e2eid];
    if (!pix) throw notFound('Pix');
    if (!ID.test(id)) throw new Problem(400, 'https://pix.bcb.gov.br/api/v2/error/DevolucaoOperacaoInvalida', 'Devolução inválida.', 'id não respeita o schema.');
    if (typeof body?.valor !== 'string' || !AMOUNT.test(body.valor)) throw new Problem(400, 'https://pix.bcb.gov.br/api/v2/error/DevolucaoOperacaoInvalida', 'Devolução inválida.', 'valor não respeita o schema.');
    const existing = pix.devolucoes.find((r) => r.id === id);
    if (existing) return { status: 201, body: refundView(existing) };
    const refunded = pix.devolucoes.filter((r) => r.status !== 'NAO_REALIZADO').reduce((sum, r) => sum + Math.round(Number(r.valor) * 100), 0);
    if (refunded + Math.round(Number(body.valor) * 100) > Math.round(Number(pix.valor) * 100)) {
      throw new Problem(400, 'https://pix.bcb.gov.br/api/v2/error/DevolucaoOperacaoInvalida', 'Devolução inválida.', 'valor excede o valor do Pix.');
    }
    if (natureza && !Object.values(state.infractions).some((i) => i.endToEndId === e2eid && i.status === 'ACEITA')) {
      throw new Problem(400, 'https://efipay.com.br/errors/devolucao_med_invalida', 'Devolução MED inválida.', 'nenhuma infração aceita para este Pix.');
    }
    const refund: Refund = {
      id,
      rtrId: newE2e('D', new Date()),
      valor: body.valor,
      status: 'EM_PROCESSAMENTO',
      solicitacao: new Date().toISOString(),
      ...(natureza ? { natureza } : {}),
      ...(body.descricao ? { descricao: body.descricao } : {}),
    };
    pix.devolucoes.push(refund);
    store.save();
    const outcome = faults.refunds.shift();
    setTimeout(() => {
      Object.assign(refund, outcome ?? { status: 'DEVOLVIDO' }, outcome ? {} : { liquidacao: new Date().toISOString() });
      store.save();
      notifier.notify(state.webhooks[pix.chave], [pixView(pix, refund)]);
    }, deps.settleDelayMs).unref();
    return { status: 201, body: refundView(refund) };
  }

  function getRefund(e2eid: string, id: string): Reply {
    const refund = state.pix[e2eid]?.devolucoes.find((r) => r.id === id);
    if (!refund) throw notFound('Devolução');
    return { status: 200, body: refundView(refund) };
  }

  // --- Efí's MED extension: infractions on PIX received, our defense (`analise` + `justificativa`).
  // Efí documents the paths and the defense body; the infraction's fields are this simulator's model.

  const infractionView = (i: Infraction) => ({ ...i });

  /** The payer's PSP opens a claim on a PIX received (control API). */
  function openInfraction(e2eid: string, options: { motivo?: string; valor?: string; prazoHoras?: number }): Infraction {
    const pix = state.pix[e2eid];
    if (!pix) throw notFound('Pix');
    const now = new Date();
    const infraction: Infraction = {
      idInfracao: `INF${random(20)}`,
      endToEndId: e2eid,
      valor: options.valor ?? pix.valor,
      motivo: options.motivo ?? 'Fraude: o pagador não reconhece a transação (golpe)',
      status: 'ABERTA',
      criacao: now.toISOString(),
      prazoDefesa: new Date(now.getTime() + (options.prazoHoras ?? 72) * 3_600_000).toISOString(),
    };
    state.infractions[infraction.idInfracao] = infraction;
    store.save();
    return infraction;
  }

  /** The receiving PSP decides a claim, or the payer's PSP withdraws it (control API). */
  function decideInfraction(id: string, status: 'ACEITA' | 'REJEITADA' | 'CANCELADA'): Infraction {
    const infraction = state.infractions[id];
    if (!infraction) throw notFound('Infração');
    if (infraction.status !== 'ABERTA' && infraction.status !== 'EM_DEFESA') throw new Problem(409, 'https://efipay.com.br/errors/infracao_encerrada', 'Infração encerrada.');
    infraction.status = status;
    store.save();
    return infraction;
  }

  function listInfractions(query: URLSearchParams): Reply {
    const inicio = Date.parse(query.get('inicio') ?? '');
    const fim = Date.parse(query.get('fim') ?? '');
    if (Number.isNaN(inicio) || Number.isNaN(fim)) throw new Problem(400, 'https://efipay.com.br/errors/parametros_invalidos', 'Parâmetros inválidos.', 'inicio e fim são obrigatórios.');
    const infracoes = Object.values(state.infractions).filter((i) => Date.parse(i.criacao) >= inicio && Date.parse(i.criacao) <= fim);
    return { status: 200, body: { infracoes: infracoes.map(infractionView) } };
  }

  function defend(id: string, body: Record<string, any>): Reply { // eslint-disable-line @typescript-eslint/no-explicit-any
    const infraction = state.infractions[id];
    if (!infraction) throw notFound('Infração');
    if (body?.analise !== 'aceito' && body?.analise !== 'negado') throw new Problem(400, 'https://efipay.com.br/errors/analise_invalida', 'analise deve ser aceito ou negado.');
    if (typeof body.justificativa !== 'string' || body.justificativa.length === 0) throw new Problem(400, 'https://efipay.com.br/errors/justificativa_invalida', 'justificativa é obrigatória.');
    if (infraction.status !== 'ABERTA' || Date.parse(infraction.prazoDefesa) <= Date.now()) {
      throw new Problem(422, 'https://efipay.com.br/errors/defesa_recusada', 'Defesa recusada.', `infração ${infraction.status}, prazo ${infraction.prazoDefesa}.`);
    }
    infraction.status = body.analise === 'aceito' ? 'ACEITA' : 'EM_DEFESA';
    infraction.justificativa = body.justificativa;
    store.save();
    return { status: 200, body: infractionView(infraction) };
  }

  // --- Efí's PIX out: its sandbox's amount rules (0.01–10.00 confirmed, 10.01–20.00 refused by webhook, above 20.00 refused at once)

  const sentView = (s: SentPix) => ({
    endToEndId: s.e2eId,
    idEnvio: s.idEnvio,
    valor: s.valor,
    horario: { solicitacao: s.solicitacao },
    status: s.status,
    ...(s.motivo ? { motivo: s.motivo } : {}),
    favorecido: { chave: s.favorecido },
  });

  function sendPix(idEnvio: string, body: Record<string, any>): Reply { // eslint-disable-line @typescript-eslint/no-explicit-any
    if (!ID.test(idEnvio)) throw new Problem(400, 'https://efipay.com.br/errors/valor_invalido', 'idEnvio inválido.');
    const existing = state.sent[idEnvio];
    if (existing) return { status: 201, body: { idEnvio, e2eId: existing.e2eId, valor: existing.valor, horario: { solicitacao: existing.solicitacao }, status: existing.status } };
    const valor = body?.valor;
    if (typeof valor !== 'string' || !AMOUNT.test(valor) || Number(valor) <= 0) throw new Problem(400, 'https://efipay.com.br/errors/valor_invalido', 'Valor inválido.');
    if (typeof body?.favorecido?.chave !== 'string' || typeof body?.pagador?.chave !== 'string') throw new Problem(400, 'https://efipay.com.br/errors/chave_invalida', 'Chave inválida.');
    if (Number(valor) > 20) throw new Problem(422, 'https://efipay.com.br/errors/pagamento_recusado', 'Pagamento recusado.', 'valor acima do limite do sandbox (20.00).');
    const now = new Date();
    const sent: SentPix = { idEnvio, e2eId: newE2e('E', now), valor, chave: body.pagador.chave, favorecido: body.favorecido.chave, solicitacao: now.toISOString(), status: 'EM_PROCESSAMENTO' };
    state.sent[idEnvio] = sent;
    store.save();
    setTimeout(() => {
      Object.assign(sent, Number(valor) <= 10 ? { status: 'REALIZADO' } : { status: 'NAO_REALIZADO', motivo: 'Pagamento recusado pela instituição do recebedor' });
      store.save();
      notifier.notify(state.webhooks[sent.chave], [{ endToEndId: sent.e2eId, valor: sent.valor, chave: sent.chave, horario: now.toISOString(), status: sent.status, gnExtras: { idEnvio } }]);
    }, deps.settleDelayMs).unref();
    return { status: 201, body: { idEnvio, e2eId: sent.e2eId, valor, horario: { solicitacao: sent.solicitacao }, status: sent.status } };
  }

  // --- Key lookup: the simulator's model of a PSP that offers its customers a DICT lookup. Not
  // BCB's API Pix, and no PSP's documented API: DICT answers participants masked documents and
  // rate-limits lookups (bacen/pix-api discussion #666), so a real PSP may offer none, or answer
  // masked documents (which confirm nothing). A CPF or CNPJ key is held by that document; other keys
  // are known once registered through the control API.

  function lookupKey(chave: string): Reply {
    if (/^\d{11}$/.test(chave)) return { status: 200, body: { chave, tipoChave: 'CPF', titular: { cpf: chave } } };
    if (/^[0-9A-Z]{12}\d{2}$/.test(chave)) return { status: 200, body: { chave, tipoChave: 'CNPJ', titular: { cnpj: chave } } };
    const holder = state.keys[chave];
    if (!holder) throw notFound('Chave');
    const tipoChave = chave.includes('@') ? 'EMAIL' : chave.startsWith('+') ? 'TELEFONE' : 'EVP';
    return { status: 200, body: { chave, tipoChave, titular: holder } };
  }

  /** Routes one authenticated request; undefined: no such route. */
  function route(method: string, path: string, query: URLSearchParams, body: any): Reply | undefined { // eslint-disable-line @typescript-eslint/no-explicit-any
    let m: RegExpExecArray | null;
    if ((m = /^\/v2\/cob\/([^/]+)$/.exec(path))) {
      const txid = decodeURIComponent(m[1]!);
      if (method === 'PUT') return putCob(txid, body);
      if (method === 'GET') {
        const charge = state.charges[txid];
        if (!charge) throw notFound('Cobrança');
        return { status: 200, body: cobView(charge) };
      }
    }
    if (path === '/v2/pix' && method === 'GET') return listPix(query);
    if ((m = /^\/v2\/pix\/([^/]+)$/.exec(path)) && method === 'GET') {
      const pix = state.pix[m[1]!];
      if (!pix) throw notFound('Pix');
      return { status: 200, body: pixView(pix) };
    }
    if ((m = /^\/v2\/pix\/([^/]+)\/devolucao\/([^/]+)$/.exec(path))) {
      if (method === 'PUT') return putRefund(m[1]!, m[2]!, body);
      if (method === 'GET') return getRefund(m[1]!, m[2]!);
    }
    if ((m = /^\/v2\/webhook\/([^/]+)$/.exec(path))) {
      const chave = decodeURIComponent(m[1]!);
      if (method === 'PUT') {
        if (typeof body?.webhookUrl !== 'string') throw new Problem(400, 'https://pix.bcb.gov.br/api/v2/error/WebhookOperacaoInvalida', 'Webhook inválido.', 'webhookUrl é obrigatório.');
        state.webhooks[chave] = body.webhookUrl;
        store.save();
        return { status: 200 };
      }
      if (method === 'GET') {
        if (!state.webhooks[chave]) throw notFound('Webhook');
        return { status: 200, body: { webhookUrl: state.webhooks[chave], chave, criacao: new Date().toISOString() } };
      }
    }
    if (path === '/v2/gn/infracoes' && method === 'GET') return listInfractions(query);
    if ((m = /^\/v2\/gn\/infracoes\/([^/]+)\/defesa$/.exec(path)) && method === 'POST') return defend(decodeURIComponent(m[1]!), body);
    if ((m = /^\/v2\/gn\/pix\/([^/]+)\/devolucao-med\/([^/]+)$/.exec(path)) && method === 'PUT') return putRefund(m[1]!, m[2]!, body, 'MED_FRAUDE');
    if ((m = /^\/v3\/gn\/pix\/([^/]+)$/.exec(path)) && method === 'PUT') return sendPix(m[1]!, body);
    if ((m = /^\/v2\/gn\/dict\/chaves\/([^/]+)$/.exec(path)) && method === 'GET') return lookupKey(decodeURIComponent(m[1]!));
    if ((m = /^\/v2\/gn\/pix\/enviados\/id-envio\/([^/]+)$/.exec(path)) && method === 'GET') {
      const sent = state.sent[m[1]!];
      if (!sent) throw notFound('Pix enviado');
      return { status: 200, body: sentView(sent) };
    }
    return undefined;
  }

  return { route, pay, payStatic, openInfraction, decideInfraction, findByCode: (code: string) => Object.values(state.charges).find((c) => c.pixCopiaECola === code) };
}

export type ApiPix = ReturnType<typeof createApiPix>;
