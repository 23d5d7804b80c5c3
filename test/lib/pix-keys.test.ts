import fc from 'fast-check';
import { cnpj as referenceCnpj, cpf as referenceCpf } from 'cpf-cnpj-validator';
import { describe, expect, it } from 'vitest';
import { type PixKeyType, validatePixKey } from '../../src/lib/pix-keys.ts';

const NUM_RUNS = 300;

// Valid documents from the independent generator (cpf-cnpj-validator; CNPJs are alphanumeric).
const REFERENCE_CPFS = Array.from({ length: 50 }, () => referenceCpf.generate());
const REFERENCE_CNPJS = Array.from({ length: 50 }, () => referenceCnpj.generate());

type Row = [input: string, normalized: string | null];

/** Per type: input and its normalised key, or null when the key must be rejected. */
const TABLE: Record<PixKeyType, Row[]> = {
  CPF: [
    ['52998224725', '52998224725'],
    ['529.982.247-25', '52998224725'],
    [' 529.982.247-25 ', '52998224725'],
    ['52998224724', null], // bad check digit
    ['529.982.247-52', null], // check digits swapped
    ['11111111111', null], // repeated digit
    ['5299822472', null], // 10 digits
    ['529982247250', null], // 12 digits
    ['529 982 247 25', null], // spaces are not separators
    ['11222333000181', null], // a CNPJ
    ['', null],
  ],
  CNPJ: [
    ['11222333000181', '11222333000181'],
    ['11.222.333/0001-81', '11222333000181'],
    ['12ABC34501DE35', '12ABC34501DE35'], // alphanumeric (from July 2026)
    ['12.ABC.345/01DE-35', '12ABC34501DE35'],
    ['12abc34501de35', '12ABC34501DE35'],
    ['12ABC34501DE36', null], // bad check digit
    ['11222333000182', null],
    ['12ABC34501DEA5', null], // check digits are always numeric
    ['00000000000000', null],
    ['52998224725', null], // a CPF
    ['', null],
  ],
  PHONE: [
    ['+5511998765432', '+5511998765432'], // mobile, 9 digits
    ['+551133334444', '+551133334444'], // landline, 8 digits
    ['5511998765432', null], // no "+"
    ['11998765432', null], // no +55
    ['+11998765432', null],
    ['+14155550123', null], // another country
    ['+55 11 99876-5432', null], // formatted
    ['+55(11)998765432', null],
    ['+5501998765432', null], // DDD cannot start with 0
    ['+55119987654321', null], // too long
    ['+55113333444', null], // too short
    [' +5511998765432', null],
  ],
  EMAIL: [
    ['fulano@example.com', 'fulano@example.com'],
    ['Fulano.De.Tal@Example.COM.br', 'fulano.de.tal@example.com.br'],
    ['fulano+pix@sub.example.com', 'fulano+pix@sub.example.com'],
    [`${'a'.repeat(65)}@example.com`, `${'a'.repeat(65)}@example.com`], // 77 characters
    [`${'a'.repeat(66)}@example.com`, null], // 78 characters
    [`${'A'.repeat(66)}@example.com`, null], // 78 characters, also after lowercasing
    ['fulano@example', null], // no dot in the domain
    ['fulano.example.com', null],
    ['fulano@@example.com', null],
    ['fulano @example.com', null],
    [' fulano@example.com', null],
    ['fulano@example.com ', null],
    ['joão@example.com', null], // non-ASCII
    ['fulano@exİmple.com', null], // 'İ' must not lowercase into "i̇"
    ['fulano@\u212Aey.com', null], // KELVIN SIGN must not lowercase into an ASCII 'k'
    ['fulano@-example.com', null],
    ['', null],
  ],
  EVP: [
    ['123e4567-e12b-12d1-a456-426655440000', '123e4567-e12b-12d1-a456-426655440000'],
    ['123E4567-E12B-12D1-A456-426655440000', '123e4567-e12b-12d1-a456-426655440000'],
    ['123e4567e12b12d1a456426655440000', null], // no dashes
    ['{123e4567-e12b-12d1-a456-426655440000}', null],
    ['123e4567-e12b-12d1-a456-42665544000g', null], // not hex
    ['123e4567-e12b-12d1-a456-42665544000', null], // short
    ['', null],
  ],
};

describe('validatePixKey tables', () => {
  for (const [type, rows] of Object.entries(TABLE) as [PixKeyType, Row[]][]) {
    describe(type, () => {
      it.each(rows)('%j -> %j', (input, normalized) => {
        const result = validatePixKey(type, input);
        if (normalized === null) {
          expect(result.ok).toBe(false);
          if (!result.ok) expect(result.reason).toMatch(/\S/);
        } else {
          expect(result).toEqual({ ok: true, normalized });
        }
      });
    });
  }

  it('names the expected phone format in the reason', () => {
    const result = validatePixKey('PHONE', '11998765432');
    expect(result).toEqual({ ok: false, reason: expect.stringContaining('+5511998765432') });
  });

  it('rejects an unknown type at run time', () => {
    expect(validatePixKey('IBAN' as PixKeyType, 'x')).toEqual({ ok: false, reason: expect.stringContaining('IBAN') });
  });
});

describe('validatePixKey properties', () => {
  it('accepts DICT-form keys as they are', () => {
    const cases = fc.oneof(
      fc.stringMatching(/^\+55[1-9][0-9]\d{8,9}$/).map((k) => ['PHONE', k] as const),
      fc.uuid().map((k) => ['EVP', k] as const),
      fc
        .emailAddress()
        .filter((k) => k.length <= 77)
        .map((k) => ['EMAIL', k.toLowerCase()] as const),
      fc.constantFrom(...REFERENCE_CPFS).map((k) => ['CPF', k] as const),
      fc.constantFrom(...REFERENCE_CNPJS).map((k) => ['CNPJ', k] as const),
    );
    fc.assert(
      fc.property(cases, ([type, key]) => {
        expect(validatePixKey(type, key)).toEqual({ ok: true, normalized: key });
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('normalises the case of e-mails and random keys', () => {
    fc.assert(
      fc.property(
        fc.emailAddress().filter((k) => k.length <= 77),
        fc.uuid(),
        (email, uuid) => {
          expect(validatePixKey('EMAIL', email.toUpperCase())).toEqual({ ok: true, normalized: email.toLowerCase() });
          expect(validatePixKey('EVP', uuid.toUpperCase())).toEqual({ ok: true, normalized: uuid.toLowerCase() });
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });

  it('rejects e-mails longer than 77 characters', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z0-9]{66,120}$/), (local) => {
        expect(validatePixKey('EMAIL', `${local}@example.com`).ok).toBe(false);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('rejects a mobile phone with a character inserted anywhere', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^\+55[1-9][0-9]\d{9}$/),
        fc.nat(),
        fc.constantFrom(' ', '-', '(', '0'),
        (phone, position, extra) => {
          const i = 1 + (position % (phone.length - 1));
          expect(validatePixKey('PHONE', phone).ok).toBe(true);
          expect(validatePixKey('PHONE', phone.slice(0, i) + extra + phone.slice(i)).ok).toBe(false);
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });
});
