/**
 * The simulator's state, kept in one JSON file written after every change (write to a temporary
 * file, then rename, so a crash leaves the old or the new state, never half of one).
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

export interface Refund {
  id: string;
  rtrId: string;
  valor: string;
  descricao?: string;
  /** Absent: ORIGINAL. MED_FRAUDE: the return of an accepted MED infraction. */
  natureza?: 'ORIGINAL' | 'MED_FRAUDE';
  status: 'EM_PROCESSAMENTO' | 'DEVOLVIDO' | 'NAO_REALIZADO';
  motivo?: string;
  solicitacao: string;
  liquidacao?: string;
}

export interface ReceivedPix {
  endToEndId: string;
  txid: string;
  valor: string;
  chave: string;
  horario: string;
  devolucoes: Refund[];
  /** Who paid, reported the Efí way (`gnExtras.pagador`); absent: the PSP does not say. */
  pagador?: Payer;
}

/** A payer as Efí's `gnExtras.pagador` (and API Pix's `devedor`) writes one. */
export interface Payer {
  nome: string;
  cpf?: string;
  cnpj?: string;
}

export interface Charge {
  txid: string;
  criacao: string;
  expiracao: number;
  valor: string;
  chave: string;
  devedor?: Record<string, string>;
  solicitacaoPagador?: string;
  status: 'ATIVA' | 'CONCLUIDA';
  locId: number;
  location: string;
  pixCopiaECola: string;
  /** endToEndId of the PIX that paid it. */
  paidBy?: string;
}

/** Efí's PIX sent (`PUT /v3/gn/pix/{idEnvio}`). */
export interface SentPix {
  idEnvio: string;
  e2eId: string;
  valor: string;
  chave: string;
  favorecido: string;
  solicitacao: string;
  status: 'EM_PROCESSAMENTO' | 'REALIZADO' | 'NAO_REALIZADO';
  motivo?: string;
}

/** A key's holder in the simulator's model of a DICT lookup (`GET /v2/gn/dict/chaves/{chave}`). */
export interface KeyHolder {
  cpf?: string;
  cnpj?: string;
  nome: string;
}

/** A MED infraction on a received PIX, the way the simulator models Efí's `/v2/gn/infracoes`. */
export interface Infraction {
  idInfracao: string;
  endToEndId: string;
  valor: string;
  motivo: string;
  status: 'ABERTA' | 'EM_DEFESA' | 'ACEITA' | 'REJEITADA' | 'CANCELADA';
  criacao: string;
  prazoDefesa: string;
  justificativa?: string;
}

export interface State {
  charges: Record<string, Charge>;
  pix: Record<string, ReceivedPix>;
  sent: Record<string, SentPix>;
  /** Key → callback URL (`PUT /webhook/{chave}`). */
  webhooks: Record<string, string>;
  /** Key → holder (`POST /control/pix-keys`): what the key lookup answers. */
  keys: Record<string, KeyHolder>;
  infractions: Record<string, Infraction>;
  nextLocId: number;
}

export function openStore(file: string) {
  const state: State = existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as State)
    : { charges: {}, pix: {}, sent: {}, webhooks: {}, keys: {}, infractions: {}, nextLocId: 1 };
  state.keys ??= {}; // a state file from before key lookups
  state.infractions ??= {}; // and from before MED
  return {
    state,
    save() {
      writeFileSync(`${file}.tmp`, JSON.stringify(state));
      renameSync(`${file}.tmp`, file);
    },
  };
}

export type Store = ReturnType<typeof openStore>;
