import { randomInt } from 'node:crypto';
import { cnpjCheckDigits, cpfCheckDigits } from '../../src/lib/br-documents.ts';

/** A random valid CPF (bare), for receivers that must not collide. */
export function randomCpf(): string {
  const base = String(randomInt(100_000_000, 999_999_999));
  return base + cpfCheckDigits(base);
}

export function randomCnpj(): string {
  const base = String(randomInt(10_000_000, 99_999_999)) + '0001';
  return base + cnpjCheckDigits(base);
}

export const formatCpfText = (cpf: string) => `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`;
