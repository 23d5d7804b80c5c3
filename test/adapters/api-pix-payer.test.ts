/**
 * The payer of a received PIX as the API Pix adapter reads it: Efí's extension
 * `gnExtras.pagador {nome, cpf | cnpj}` (src/adapters/pix/api-pix/payer.ts), in answers and in
 * webhook entries; anything else shaped counts as not reported.
 */
import { describe, expect, it } from 'vitest';
import { pixPayerOf } from '../../src/adapters/pix/api-pix/payer.ts';
import { parsePixWebhook } from '../../src/adapters/pix/api-pix/webhook.ts';

const entry = { endToEndId: 'E12345678202611231500aaaaaaaaaaa', txid: 'a'.repeat(30), valor: '10.00', horario: '2026-11-23T15:00:00Z' };

describe('API Pix payer (Efí gnExtras.pagador)', () => {
  it('reads a CPF or a CNPJ payer, formatted or bare', () => {
    expect(pixPayerOf({ gnExtras: { pagador: { nome: 'Joana', cpf: '529.982.247-25' } } })).toEqual({ documentType: 'CPF', document: '52998224725', name: 'Joana' });
    expect(pixPayerOf({ gnExtras: { pagador: { nome: 'Padaria', cnpj: '12ABC34501DE35' } } })).toEqual({ documentType: 'CNPJ', document: '12ABC34501DE35', name: 'Padaria' });
  });

  it('no extension, both documents, or a malformed one: not reported', () => {
    expect(pixPayerOf({})).toBeUndefined();
    expect(pixPayerOf({ gnExtras: { pagador: { nome: 'X', cpf: '52998224725', cnpj: '12ABC34501DE35' } } })).toBeUndefined();
    expect(pixPayerOf({ gnExtras: { pagador: { nome: 'X', cpf: '***.982.247-**' } } })).toBeUndefined();
    expect(pixPayerOf({ gnExtras: { pagador: 'Joana' } })).toBeUndefined();
  });

  it('a webhook entry carries the payer into its charge_paid notification', () => {
    const [paid] = parsePixWebhook({ pix: [{ ...entry, gnExtras: { pagador: { nome: 'Joana', cpf: '52998224725' } } }] });
    expect(paid).toMatchObject({ kind: 'charge_paid', payer: { documentType: 'CPF', document: '52998224725', name: 'Joana' } });
    expect(parsePixWebhook({ pix: [entry] })[0]).not.toHaveProperty('payer');
  });
});
