import fc from 'fast-check';
import { cnpj as referenceCnpj, cpf as referenceCpf } from 'cpf-cnpj-validator';
import { describe, expect, it } from 'vitest';
import {
  cnpjCheckDigits,
  cpfCheckDigits,
  documentTypeFor,
  formatCnpj,
  formatCpf,
  isValidCnpj,
  isValidCpf,
  normalizeDocument,
  parseDocument,
} from '../../src/lib/br-documents.ts';
import { BRAZILIAN_STATES } from '../../src/lib/br-states.ts';

const NUM_RUNS = 500;

// ---------------------------------------------------------------------------------------------
// The independent validator (cpf-cnpj-validator 2.x) has two modes, and neither matches our rules
// on every input (see "where the reference validator differs" below):
//  - loose (default) deletes every character that is not a digit (CPF) or [0-9A-Z] after a
//    Unicode toUpperCase (CNPJ), so it accepts "529 982 247 25", "52998224725x", "1.2.3…";
//  - strict accepts only the canonical mask or the bare form, and is case-sensitive for CNPJ.
// Our rules (DOMAIN.md) sit in between, so the random-string comparison runs on the bare form
// (no separators, no whitespace) against strict mode, with letters ASCII-upper-cased for the
// CNPJ side only because strict mode does not fold case.
// The reference also blacklists 123.456.789-09, whose check digits are correct; our rules only
// reject repeated-digit strings, so we accept it: that is the one value where we overrule it.
// ---------------------------------------------------------------------------------------------
const REFERENCE_ONLY_BLACKLISTED_CPF = '12345678909';

/** Reference CPF verdict on a bare string, with the one deliberate disagreement applied. */
const referenceCpfIsValid = (bare: string): boolean =>
  bare === REFERENCE_ONLY_BLACKLISTED_CPF || referenceCpf.isValid(bare, true);
/** Reference CNPJ verdict on a bare string (strict mode does not fold case, so fold ASCII a-z). */
const referenceCnpjIsValid = (bare: string): boolean =>
  referenceCnpj.isValid(bare.replace(/[a-z]/g, (c) => c.toUpperCase()), true);

const DIGITS = '0123456789';
const ALNUM = `${DIGITS}ABCDEFGHIJKLMNOPQRSTUVWXYZ`;
const isRepeated = (s: string): boolean => /^(.)\1*$/.test(s);
const charValue = (c: string): number => c.charCodeAt(0) - 48;
const replaceAt = (s: string, i: number, c: string): string => `${s.slice(0, i)}${c}${s.slice(i + 1)}`;

const fixedString = (alphabet: string, length: number) =>
  fc.string({ unit: fc.constantFrom(...alphabet), minLength: length, maxLength: length });

// Repeated bases are excluded: e.g. 000000000 + its DVs is 00000000000, invalid by rule.
const cpfBase = fixedString(DIGITS, 9).filter((b) => !isRepeated(b) && `${b}${cpfCheckDigits(b)}` !== REFERENCE_ONLY_BLACKLISTED_CPF);
const numericCnpjBase = fixedString(DIGITS, 12).filter((b) => !isRepeated(b));
const alphanumericCnpjBase = fixedString(ALNUM, 12).filter((b) => /[A-Z]/.test(b));

const validCpf = cpfBase.map((b) => `${b}${cpfCheckDigits(b)}`);
const validNumericCnpj = numericCnpjBase.map((b) => `${b}${cnpjCheckDigits(b)}`);
const validAlphanumericCnpj = alphanumericCnpjBase.map((b) => `${b}${cnpjCheckDigits(b)}`);
const validCnpj = fc.oneof(validNumericCnpj, validAlphanumericCnpj);

describe('check digit calculation', () => {
  it('matches the published examples', () => {
    expect(cpfCheckDigits('529982247')).toBe('25');
    expect(cnpjCheckDigits('112223330001')).toBe('81');
    expect(cnpjCheckDigits('12ABC34501DE')).toBe('35');
  });

  it('rejects bases of the wrong shape instead of computing nonsense', () => {
    for (const bad of ['52998224', '5299822470', '52998224A', '']) expect(() => cpfCheckDigits(bad)).toThrow(RangeError);
    for (const bad of ['11222333000', '1122233300011', '12abc34501de', '12.ABC.345/0']) {
      expect(() => cnpjCheckDigits(bad)).toThrow(RangeError);
    }
  });
});

describe('isValidCpf', () => {
  it.each(['529.982.247-25', '52998224725', '  529.982.247-25\t', '529982247-25', '529.982.24725'])('accepts %j', (input) => {
    expect(isValidCpf(input)).toBe(true);
  });

  it.each([
    ['wrong second check digit', '529.982.247-26'],
    ['wrong first check digit', '529.982.247-15'],
    ['10 digits', '5299822472'],
    ['12 digits', '529982247250'],
    ['empty', ''],
    ['only separators', '..-/'],
    ['letter in a check digit', '529.982.247-2A'],
    ['letter in the base', '52998224A25'],
    ['lowercase letter', '529982247a25'],
    ['inner spaces', '529 982 247 25'],
    ['space next to a separator', '529. 982.247-25'],
    ['underscore separator', '529_982_247_25'],
    ['comma separator', '529,982,247-25'],
    ['en dash instead of hyphen', '529.982.247–25'],
    ['full-width digits', '５２９９８２２４７２５'],
    ['a valid CNPJ', '11.222.333/0001-81'],
  ])('rejects %s (%j)', (_label, input) => {
    expect(isValidCpf(input)).toBe(false);
  });

  it.each([...DIGITS])('rejects %s repeated eleven times, although its check digits add up', (d) => {
    // Guard: without the repeated-digit rule this string would pass, so the test has teeth.
    expect(cpfCheckDigits(d.repeat(9))).toBe(d.repeat(2));
    expect(isValidCpf(d.repeat(11))).toBe(false);
    expect(isValidCpf(`${d.repeat(3)}.${d.repeat(3)}.${d.repeat(3)}-${d.repeat(2)}`)).toBe(false);
  });
});

describe('isValidCnpj', () => {
  it.each([
    '11.222.333/0001-81',
    '11222333000181',
    ' 11.222.333/0001-81 ',
    '12.ABC.345/01DE-35',
    '12ABC34501DE35',
    '12.abc.345/01de-35',
    '12abc34501de35',
    '12.aBc.345/01De-35',
  ])('accepts %j', (input) => {
    expect(isValidCnpj(input)).toBe(true);
  });

  it.each([
    ['wrong second check digit', '11.222.333/0001-82'],
    ['wrong first check digit', '11.222.333/0001-91'],
    ['alphanumeric, wrong check digit', '12.ABC.345/01DE-36'],
    ['13 characters', '1122233300018'],
    ['15 characters', '112223330001810'],
    ['letter in the first check digit', '12.ABC.345/01DE-A5'],
    ['letter in the second check digit', '12ABC34501DE3F'],
    ['backslash separator', '12.ABC.345\\01DE-35'],
    ['inner spaces', '12 ABC 345 01DE 35'],
    ['other punctuation', '12*ABC*345*01DE*35'],
    ['non-ASCII letter', '12.ÁBC.345/01DE-35'],
    ['a valid CPF', '529.982.247-25'],
  ])('rejects %s (%j)', (_label, input) => {
    expect(isValidCnpj(input)).toBe(false);
  });

  it.each([...DIGITS])('rejects %s repeated fourteen times', (d) => {
    expect(isValidCnpj(d.repeat(14))).toBe(false);
  });

  it('rejects 00000000000000 because of the repeated-digit rule, not the check digits', () => {
    expect(cnpjCheckDigits('000000000000')).toBe('00');
    expect(isValidCnpj('00.000.000/0000-00')).toBe(false);
  });

  it('upper-cases only ASCII letters, so Unicode look-alikes are not smuggled in', () => {
    const doc = `12IBS34501DE${cnpjCheckDigits('12IBS34501DE')}`;
    expect(isValidCnpj(doc)).toBe(true);
    expect(isValidCnpj(doc.toLowerCase())).toBe(true);
    // 'ı' (dotless i) and 'ſ' (long s) become 'I' and 'S' under String#toUpperCase.
    expect('ı'.toUpperCase()).toBe('I');
    expect(isValidCnpj(doc.replace('I', 'ı'))).toBe(false);
    expect(isValidCnpj(doc.replace('S', 'ſ'))).toBe(false);
  });
});

describe('known blind spots of the mod-11 check digits (the rules, not our bugs)', () => {
  it('a single-digit change can go unnoticed when the remainders swap between 0 and 1', () => {
    for (const [a, b] of [
      ['82812709006', '92812709006'], // CPF, first digit: DV2 weight 11 is 0 mod 11
      ['01637569045900', '21637569045900'], // numeric CNPJ
    ] as const) {
      expect(isValidCpf(a) || isValidCnpj(a)).toBe(true);
      expect(isValidCpf(b) || isValidCnpj(b)).toBe(true);
    }
    expect(referenceCpf.isValid('92812709006', true)).toBe(true);
    expect(referenceCnpj.isValid('21637569045900', true)).toBe(true);
  });

  it('alphanumeric CNPJ characters 11 apart in value are interchangeable', () => {
    expect(isValidCnpj('12LBC34501DE35')).toBe(true); // A (17) -> L (28)
    expect(isValidCnpj('12AB834501DE35')).toBe(true); // C (19) -> 8 (8)
    expect(referenceCnpj.isValid('12LBC34501DE35', true)).toBe(true);
  });
});

describe('normalizeDocument', () => {
  it.each([
    ['529.982.247-25', '52998224725'],
    ['  12.abc.345/01de-35\n', '12ABC34501DE35'],
    ['a b', 'A B'],
    ['x*y', 'X*Y'],
    ['', ''],
    ['ı', 'ı'],
    // A separator next to whitespace must not leave the whitespace at an edge (found by fast-check).
    ['- 000000000', '000000000'],
  ])('%j -> %j', (input, expected) => {
    expect(normalizeDocument(input)).toBe(expected);
  });
});

describe('documentTypeFor and parseDocument', () => {
  it('maps PF to CPF and PJ to CNPJ', () => {
    expect(documentTypeFor('PF')).toBe('CPF');
    expect(documentTypeFor('PJ')).toBe('CNPJ');
    expect(() => documentTypeFor('XX' as never)).toThrow(RangeError);
  });

  it('returns the normalised document for a valid one', () => {
    expect(parseDocument('PF', ' 529.982.247-25 ')).toEqual({ ok: true, normalized: '52998224725', documentType: 'CPF' });
    expect(parseDocument('PJ', '11.222.333/0001-81')).toEqual({ ok: true, normalized: '11222333000181', documentType: 'CNPJ' });
    expect(parseDocument('PJ', '12.abc.345/01de-35')).toEqual({ ok: true, normalized: '12ABC34501DE35', documentType: 'CNPJ' });
  });

  it('explains what is wrong', () => {
    expect(parseDocument('PF', '529.982.247-26')).toEqual({
      ok: false,
      reason: 'document must be a valid CPF (11 digits with valid check digits) for a PF receiver',
    });
    expect(parseDocument('PJ', '11.222.333/0001-80')).toEqual({
      ok: false,
      reason: 'document must be a valid CNPJ (12 letters or digits plus 2 check digits) for a PJ receiver',
    });
    expect(parseDocument('PF', '11.222.333/0001-81')).toEqual({
      ok: false,
      reason: 'document is a CNPJ, but a PF receiver must have a CPF',
    });
    expect(parseDocument('PJ', '529.982.247-25')).toEqual({
      ok: false,
      reason: 'document is a CPF, but a PJ receiver must have a CNPJ',
    });
  });
});

describe('formatCpf and formatCnpj', () => {
  it('apply the official masks', () => {
    expect(formatCpf('52998224725')).toBe('529.982.247-25');
    expect(formatCnpj('11222333000181')).toBe('11.222.333/0001-81');
    expect(formatCnpj('12ABC34501DE35')).toBe('12.ABC.345/01DE-35');
  });

  it('refuse input that is not a normalised document', () => {
    for (const bad of ['529.982.247-25', '5299822472', '5299822472A']) expect(() => formatCpf(bad)).toThrow(RangeError);
    for (const bad of ['12.ABC.345/01DE-35', '12abc34501de35', '12ABC34501DEA5', '1122233300018']) {
      expect(() => formatCnpj(bad)).toThrow(RangeError);
    }
  });
});

describe('BRAZILIAN_STATES', () => {
  it('lists the 27 UFs, the same set the reference library knows', () => {
    expect(BRAZILIAN_STATES).toHaveLength(27);
    expect(new Set(BRAZILIAN_STATES).size).toBe(27);
    expect([...BRAZILIAN_STATES].sort()).toEqual(Object.keys(referenceCpf.FISCAL_REGION_BY_UF).sort());
  });
});

describe('where the reference validator differs (we follow DOMAIN.md)', () => {
  it('123.456.789-09 has correct check digits: we accept it, the reference blacklists it', () => {
    expect(cpfCheckDigits('123456789')).toBe('09');
    expect(isValidCpf('123.456.789-09')).toBe(true);
    expect(referenceCpf.isValid('123.456.789-09')).toBe(false);
  });

  it('reference loose mode deletes junk characters; we reject them', () => {
    for (const input of ['529 982 247 25', '529*982*247*25', '52998224725x']) {
      expect(referenceCpf.isValid(input)).toBe(true);
      expect(isValidCpf(input)).toBe(false);
    }
    const withDotlessI = `12ıBS34501DE${cnpjCheckDigits('12IBS34501DE')}`;
    expect(referenceCnpj.isValid(withDotlessI)).toBe(true);
    expect(isValidCnpj(withDotlessI)).toBe(false);
  });

  it('reference strict mode refuses surrounding whitespace, partial masks and lowercase; we accept them', () => {
    for (const input of [' 529.982.247-25', '529982247-25']) {
      expect(referenceCpf.isValid(input, true)).toBe(false);
      expect(isValidCpf(input)).toBe(true);
    }
    expect(referenceCnpj.isValid('12abc34501de35', true)).toBe(false);
    expect(isValidCnpj('12abc34501de35')).toBe(true);
  });
});

describe('properties', () => {
  const opts = { numRuns: NUM_RUNS };

  it('base + cpfCheckDigits(base) is a valid CPF, bare and formatted, and the reference agrees', () => {
    fc.assert(
      fc.property(validCpf, (doc) => {
        expect(isValidCpf(doc)).toBe(true);
        expect(isValidCpf(formatCpf(doc))).toBe(true);
        expect(referenceCpf.isValid(doc, true)).toBe(true);
        expect(referenceCpf.isValid(formatCpf(doc), true)).toBe(true);
        expect(isValidCnpj(doc)).toBe(false);
      }),
      opts,
    );
  });

  it('base + cnpjCheckDigits(base) is a valid CNPJ (numeric and alphanumeric), and the reference agrees', () => {
    fc.assert(
      fc.property(validCnpj, (doc) => {
        expect(isValidCnpj(doc)).toBe(true);
        expect(isValidCnpj(formatCnpj(doc))).toBe(true);
        expect(isValidCnpj(doc.toLowerCase())).toBe(true);
        expect(referenceCnpj.isValid(doc, true)).toBe(true);
        expect(referenceCnpj.isValid(formatCnpj(doc), true)).toBe(true);
        expect(isValidCpf(doc)).toBe(false);
      }),
      opts,
    );
  });

  // The brief's "any single-digit change is caught" is not quite true of mod 11 (see the blind
  // spots above), so the properties state exactly when a change may slip through: only when the
  // remainder behind a check digit could move between 0 and 1, i.e. that check digit is 0.
  it('a single-digit change in a CPF is caught unless its first check digit is 0', () => {
    fc.assert(
      fc.property(validCpf, fc.nat(10), fc.constantFrom(...DIGITS), (doc, i, c) => {
        fc.pre(doc[i] !== c);
        const mutant = replaceAt(doc, i, c);
        const valid = isValidCpf(mutant);
        expect(valid).toBe(referenceCpfIsValid(mutant));
        if (i >= 9) expect(valid).toBe(false); // a check digit is fully determined by what precedes it
        // Position 0 has DV2 weight 11 (= 0 mod 11), so only DV1 guards it.
        else if (valid) expect(doc.slice(9)).toMatch(i === 0 ? /^0\d$/ : /^00$/);
      }),
      opts,
    );
  });

  it('a single-digit change in a numeric CNPJ is caught unless both check digits are 0', () => {
    fc.assert(
      fc.property(validNumericCnpj, fc.nat(13), fc.constantFrom(...DIGITS), (doc, i, c) => {
        fc.pre(doc[i] !== c);
        const mutant = replaceAt(doc, i, c);
        const valid = isValidCnpj(mutant);
        expect(valid).toBe(referenceCnpjIsValid(mutant));
        if (i >= 12 || doc.slice(12) !== '00') expect(valid).toBe(false);
      }),
      opts,
    );
  });

  it('a single-character change in an alphanumeric CNPJ is caught unless the values differ by a multiple of 11 or both DVs are 0', () => {
    fc.assert(
      fc.property(validAlphanumericCnpj, fc.nat(11), fc.constantFrom(...ALNUM), (doc, i, c) => {
        fc.pre(doc[i] !== c);
        const mutant = replaceAt(doc, i, c);
        const valid = isValidCnpj(mutant);
        expect(valid).toBe(referenceCnpjIsValid(mutant));
        // Only the ASCII-48 values of the RFB rule make the "multiple of 11" case always valid.
        if ((charValue(c) - charValue(doc[i] ?? '')) % 11 === 0) expect(valid).toBe(true);
        else if (doc.slice(12) !== '00') expect(valid).toBe(false);
      }),
      opts,
    );
  });

  it('changing a check digit of an alphanumeric CNPJ always invalidates it', () => {
    fc.assert(
      fc.property(validAlphanumericCnpj, fc.integer({ min: 12, max: 13 }), fc.constantFrom(...ALNUM), (doc, i, c) => {
        fc.pre(doc[i] !== c);
        expect(isValidCnpj(replaceAt(doc, i, c))).toBe(false);
      }),
      opts,
    );
  });

  // Document-like strings: pure noise, strings over the document alphabet (with lowercase,
  // separators, spaces and look-alikes), and valid documents with one random edit, so that both
  // verdicts occur often enough for agreement to mean something.
  const NOISE = `${ALNUM}abcdefghijklmnopqrstuvwxyz./- _*ıſ`;
  const edit = (doc: fc.Arbitrary<string>) =>
    fc
      .tuple(doc, fc.nat(15), fc.constantFrom(...NOISE), fc.constantFrom('insert', 'delete', 'replace', 'lower', 'none'))
      .map(([d, i, c, op]) => {
        switch (op) {
          case 'insert':
            return `${d.slice(0, i)}${c}${d.slice(i)}`;
          case 'delete':
            return `${d.slice(0, i)}${d.slice(i + 1)}`;
          case 'replace':
            return replaceAt(d, i, c);
          case 'lower':
            return d.toLowerCase();
          case 'none':
            return d;
        }
      });
  const documentLike = fc.oneof(
    fc.string({ maxLength: 20 }),
    fc.string({ unit: 'binary', maxLength: 16 }),
    fc.string({ unit: fc.constantFrom(...NOISE), minLength: 9, maxLength: 20 }),
    edit(validCpf),
    edit(validNumericCnpj),
    edit(validAlphanumericCnpj),
    edit(validCpf.map(formatCpf)),
    edit(validCnpj.map(formatCnpj)),
  );
  const isBare = (s: string): boolean => !/[./\-\s]/.test(s);

  it('on random bare strings, our verdicts agree with the reference validator', () => {
    const seen = { bare: 0, cpf: 0, cnpj: 0 };
    fc.assert(
      fc.property(documentLike, (s) => {
        if (!isBare(s)) return;
        seen.bare++;
        expect(isValidCpf(s)).toBe(referenceCpfIsValid(s));
        expect(isValidCnpj(s)).toBe(referenceCnpjIsValid(s));
        if (isValidCpf(s)) seen.cpf++;
        if (isValidCnpj(s)) seen.cnpj++;
      }),
      { numRuns: 2 * NUM_RUNS },
    );
    // Non-vacuity: enough bare inputs, and both verdicts occurred for both document types.
    expect(seen.bare).toBeGreaterThan(NUM_RUNS / 2);
    expect(seen.cpf).toBeGreaterThan(10);
    expect(seen.cnpj).toBeGreaterThan(10);
    expect(seen.bare - seen.cpf - seen.cnpj).toBeGreaterThan(100);
  });

  it('on any string, the verdict is that of its normalised form, and that form is bare', () => {
    fc.assert(
      fc.property(documentLike, (s) => {
        const n = normalizeDocument(s);
        expect(n).not.toMatch(/[./-]|^\s|\s$|[a-z]/);
        expect(normalizeDocument(n)).toBe(n);
        expect(isValidCpf(s)).toBe(isValidCpf(n));
        expect(isValidCnpj(s)).toBe(isValidCnpj(n));
      }),
      opts,
    );
  });

  it('formatting then parsing round-trips, and our masks match the reference', () => {
    fc.assert(
      fc.property(validCpf, validCnpj, fc.boolean(), (cpf, cnpj, lower) => {
        const formattedCpf = formatCpf(cpf);
        const formattedCnpj = lower ? formatCnpj(cnpj).toLowerCase() : formatCnpj(cnpj);
        expect(formattedCpf).toMatch(/^\d{3}\.\d{3}\.\d{3}-\d{2}$/);
        expect(formattedCpf).toBe(referenceCpf.format(cpf));
        expect(formatCnpj(cnpj)).toBe(referenceCnpj.format(cnpj));
        expect(normalizeDocument(formattedCpf)).toBe(cpf);
        expect(normalizeDocument(formattedCnpj)).toBe(cnpj);
        expect(parseDocument('PF', formattedCpf)).toEqual({ ok: true, normalized: cpf, documentType: 'CPF' });
        expect(parseDocument('PJ', formattedCnpj)).toEqual({ ok: true, normalized: cnpj, documentType: 'CNPJ' });
        expect(formatCpf(normalizeDocument(formattedCpf))).toBe(formattedCpf);
      }),
      opts,
    );
  });
});
