/**
 * Who paid a received PIX. API Pix's `Pix` object does not say (its `devedor` is the charge's
 * addressee, not the payer), but the PSP learns the payer's CPF/CNPJ and name from SPI's pacs.008
 * and most PSPs pass them on in an extension. We read Efí's: `gnExtras.pagador { nome, cpf | cnpj }`
 * (docs/architecture/compliance-policies.md). API Pix's schemas allow extra properties, so the
 * extension does not break the document. Anything else shaped (no document, both documents, a
 * malformed one) counts as "not reported".
 */
import type { PixPayer } from '../port.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const CPF = /^\d{11}$/;
const CNPJ = /^[0-9A-Z]{12}\d{2}$/;

export function pixPayerOf(pix: Json | null | undefined): PixPayer | undefined {
  const pagador = pix?.gnExtras?.pagador as Json | undefined;
  if (typeof pagador !== 'object' || pagador === null) return undefined;
  const name = typeof pagador.nome === 'string' ? pagador.nome : '';
  const cpf = typeof pagador.cpf === 'string' ? pagador.cpf.replace(/[.\-/]/g, '') : undefined;
  const cnpj = typeof pagador.cnpj === 'string' ? pagador.cnpj.replace(/[.\-/]/g, '').toUpperCase() : undefined;
  if (cpf !== undefined && cnpj === undefined && CPF.test(cpf)) return { documentType: 'CPF', document: cpf, name };
  if (cnpj !== undefined && cpf === undefined && CNPJ.test(cnpj)) return { documentType: 'CNPJ', document: cnpj, name };
  return undefined;
}
