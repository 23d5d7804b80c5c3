/**
 * Faults on request (control API `POST /control/faults`): each entry is used up by the next call
 * or notification it matches, in the order given.
 */
export type WebhookFault = 'lose' | 'duplicate' | 'reorder' | { delayMs: number };

export interface HttpFault {
  /** Applies to requests whose path starts with this (default: any API request). */
  pathPrefix?: string;
  /** Answer with this status and a problem+json body. */
  status?: number;
  /** Hold the request this long before answering it normally (a client with a shorter deadline times out). */
  delayMs?: number;
}

export interface Faults {
  webhook: WebhookFault[];
  http: HttpFault[];
  /** Outcomes of the next refunds (default DEVOLVIDO). */
  refunds: Array<{ status: 'NAO_REALIZADO'; motivo: string }>;
  /** Send `devolucoes` as one object instead of an array (as the API Pix document's own example does). */
  devolucoesAsObject: boolean;
}

export const emptyFaults = (): Faults => ({ webhook: [], http: [], refunds: [], devolucoesAsObject: false });

export function takeHttpFault(faults: Faults, path: string): HttpFault | undefined {
  const index = faults.http.findIndex((fault) => !fault.pathPrefix || path.startsWith(fault.pathPrefix));
  return index < 0 ? undefined : faults.http.splice(index, 1)[0];
}
