import fc from 'fast-check';
import { createDynamicPix, createStaticPix, hasError, parsePix } from 'pix-utils';
import { describe, expect, it } from 'vitest';
import { cnpjCheckDigits, cpfCheckDigits } from '../../src/lib/br-documents.ts';
import { buildDynamicPixCode, buildStaticPixCode, pixText } from '../../src/lib/pix-brcode.ts';

const NUM_RUNS = 300;

// DOMAIN.md test vectors, to be reproduced byte for byte.
const VECTOR_1 =
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D';
const VECTOR_2 =
  '00020126370014br.gov.bcb.pix0115pix@example.com520400005303986540510.505802BR5913FULANO DE TAL6009SAO PAULO62130509PEDIDO12363043A5D';
const VECTOR_1_KEY = '123e4567-e12b-12d1-a456-426655440000';

// pix-utils quirks (2.8.2), which shape the assertions below:
//  - a static code without field 54 parses with transactionAmount 0, not undefined;
//  - it returns merchant name and city exactly as written (only its builder normalises them);
//  - its builder writes the fields of a static code in our order (00, 26, 52, 53, 54, 58, 59,
//    60, 62, 63), 54 with exactly 2 decimals and no 01: for inputs already in their written form
//    the two builders must agree byte for byte, which pins every field and the CRC at once.

/** pix-utils' code for the same charge (name and city already as pixText writes them). */
function referenceCode(input: { key: string; amount?: number; merchantName: string; merchantCity: string; txid?: string }): string {
  const built = createStaticPix({
    pixKey: input.key,
    transactionAmount: input.amount ?? 0,
    merchantName: input.merchantName,
    merchantCity: input.merchantCity,
    ...(input.txid === undefined ? {} : { txid: input.txid }),
  });
  if (hasError(built)) throw new Error(`pix-utils refused ${JSON.stringify(input)}: ${built.message}`);
  return built.toBRCode();
}

/** pix-utils' reading of a code we wrote; a failure names the code. */
function parsed(code: string) {
  const reference = parsePix(code);
  if (hasError(reference)) throw new Error(`pix-utils rejected ${code}: ${reference.message}`);
  if (reference.type !== 'STATIC') throw new Error(`expected a static code, got ${reference.type}`);
  return reference;
}

// --- arbitraries ---------------------------------------------------------------------------

/** Integer centavos 1..10^11 (R$ 0,01 .. R$ 1.000.000.000,00), as text, trimmed text or number. */
const amountArb = fc.integer({ min: 1, max: 100_000_000_000 }).chain((centavos) => {
  const fixed = `${Math.floor(centavos / 100)}.${String(centavos % 100).padStart(2, '0')}`;
  return fc
    .constantFrom<string | number>(fixed, String(centavos / 100), centavos / 100)
    .map((input) => ({ input, number: centavos / 100 }));
});

/** Accented letters and their unaccented uppercase base (the oracle for pixText). */
const ACCENTED: Record<string, string> = {
  á: 'A', à: 'A', â: 'A', ã: 'A', ä: 'A', é: 'E', ê: 'E', è: 'E', í: 'I', ï: 'I', ó: 'O', ô: 'O', õ: 'O',
  ö: 'O', ú: 'U', ü: 'U', ç: 'C', ñ: 'N', Á: 'A', Â: 'A', Ã: 'A', É: 'E', Ê: 'E', Í: 'I', Ó: 'O', Ô: 'O',
  Õ: 'O', Ú: 'U', Ç: 'C',
};
const PUNCTUATION = [...`!"#$%&'()*+,/:;<=>?@[\\]^_\`{|}~`, '\t', '\n', '  ', '€', 'ß', '😀', 'ø'];
const ASCII_PRINTABLE = Array.from({ length: 95 }, (_, i) => String.fromCharCode(0x20 + i));

const messyChar = fc.oneof(
  fc.constantFrom(...Object.keys(ACCENTED)),
  fc.constantFrom(...PUNCTUATION),
  fc.constantFrom(...ASCII_PRINTABLE),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
);
/** Names and cities with accents, punctuation, odd spacing; at least one character survives. */
const messyText = (maxLength: number) =>
  fc.string({ unit: messyChar, minLength: 1, maxLength }).filter((s) => pixText(s, 99) !== '');

const cpfArb = fc.stringMatching(/^\d{9}$/).map((base) => base + cpfCheckDigits(base));
const cnpjArb = fc.stringMatching(/^[0-9A-Z]{12}$/).map((base) => base + cnpjCheckDigits(base));
const phoneArb = fc.stringMatching(/^\+55[1-9][0-9]\d{8,9}$/);
const emailArb = fc
  .emailAddress()
  .map((e) => e.toLowerCase())
  .filter((e) => e.length <= 77);
const keyArb = fc.oneof(cpfArb, cnpjArb, phoneArb, emailArb, fc.uuid());
const txidArb = fc.option(fc.stringMatching(/^[A-Za-z0-9]{1,25}$/), { nil: undefined });
// --- tests ---------------------------------------------------------------------------------

describe('DOMAIN vectors', () => {
  it('vector 1 from the builder, with the name uppercased as the builder must', () => {
    const code = buildStaticPixCode({ key: VECTOR_1_KEY, merchantName: 'Fulano de Tal', merchantCity: 'Brasília' });
    // Only the name (and so the CRC) differs from the vector, whose mixed-case name no builder of ours writes.
    expect(code.slice(0, -4)).toBe(VECTOR_1.slice(0, -4).replace('5913Fulano de Tal', '5913FULANO DE TAL'));
    expect(code).toBe(referenceCode({ key: VECTOR_1_KEY, merchantName: 'FULANO DE TAL', merchantCity: 'BRASILIA' }));
  });

  it('vector 2 from the builder, amount as text or number', () => {
    const input = { key: 'pix@example.com', merchantName: 'FULANO DE TAL', merchantCity: 'SAO PAULO', txid: 'PEDIDO123' };
    expect(buildStaticPixCode({ ...input, amount: '10.50' })).toBe(VECTOR_2);
    expect(buildStaticPixCode({ ...input, amount: 10.5 })).toBe(VECTOR_2);
    expect(buildStaticPixCode({ ...input, amount: '10.5', merchantName: 'Fulano de Tal', merchantCity: 'São Paulo' })).toBe(
      VECTOR_2,
    );
  });

  it('both vectors parse with pix-utils, CRC included', () => {
    expect(parsed(VECTOR_2)).toMatchObject({ pixKey: 'pix@example.com', transactionAmount: 10.5, txid: 'PEDIDO123' });
    expect(parsed(VECTOR_1)).toMatchObject({ pixKey: VECTOR_1_KEY, transactionAmount: 0, txid: '***', merchantName: 'Fulano de Tal' });
    expect(hasError(parsePix(VECTOR_2.replace(/3A5D$/, '3A5E')))).toBe(true);
  });
});

describe('pixText', () => {
  it('transliterates, keeps [A-Z0-9 .-], collapses spaces and truncates', () => {
    expect(pixText('São João d’El-Rei', 25)).toBe('SAO JOAO DEL-REI');
    expect(pixText('  Açaí   & Cia.\tLtda ', 25)).toBe('ACAI CIA. LTDA');
    expect(pixText('Florianópolis', 15)).toBe('FLORIANOPOLIS');
    expect(pixText('Rio de Janeiro Capital', 15)).toBe('RIO DE JANEIRO');
    expect(pixText('***', 25)).toBe('');
  });

  it('strips accents exactly to their base letters', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...Object.keys(ACCENTED)), { minLength: 1, maxLength: 25 }), (chars) => {
        expect(pixText(chars.join(''), 25)).toBe(chars.map((c) => ACCENTED[c]).join(''));
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('always yields the allowed alphabet, within the limit, trimmed, idempotent', () => {
    fc.assert(
      fc.property(fc.string({ unit: messyChar, maxLength: 60 }), fc.integer({ min: 1, max: 25 }), (text, max) => {
        const out = pixText(text, max);
        expect(out).toMatch(/^[A-Z0-9 .-]*$/);
        expect(out.length).toBeLessThanOrEqual(max);
        expect(out).toBe(out.trim());
        expect(out).not.toContain('  ');
        expect(pixText(out, max)).toBe(out);
      }),
      { numRuns: NUM_RUNS },
    );
  });
});

describe('buildStaticPixCode', () => {
  it('writes what pix-utils writes and reads back', () => {
    fc.assert(
      fc.property(keyArb, fc.option(amountArb, { nil: undefined }), messyText(40), messyText(30), txidArb, (key, amount, name, city, txid) => {
        const code = buildStaticPixCode({ key, amount: amount?.input, merchantName: name, merchantCity: city, txid });
        const merchantName = pixText(name, 25);
        const merchantCity = pixText(city, 15);
        expect(code).toBe(referenceCode({ key, amount: amount?.number, merchantName, merchantCity, txid }));
        expect(parsed(code)).toMatchObject({
          pixKey: key,
          merchantName,
          merchantCity,
          txid: txid ?? '***',
          transactionAmount: amount?.number ?? 0,
          merchantCategoryCode: '0000',
          transactionCurrency: '986',
          countryCode: 'BR',
        });
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('a changed character breaks the CRC', () => {
    fc.assert(
      fc.property(
        keyArb,
        amountArb,
        messyText(30),
        messyText(20),
        fc.nat(),
        fc.integer({ min: 1, max: 94 }),
        (key, amount, name, city, position, shift) => {
          const code = buildStaticPixCode({ key, amount: amount.input, merchantName: name, merchantCity: city });
          const i = position % code.length;
          // Another printable ASCII character: rotate within 0x20..0x7E by 1..94.
          const changed = String.fromCharCode(((code.charCodeAt(i) - 0x20 + shift) % 95) + 0x20);
          const mutated = code.slice(0, i) + changed + code.slice(i + 1);
          expect(mutated).not.toBe(code);
          expect(hasError(parsePix(mutated))).toBe(true);
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });

  it('rejects invalid amounts', () => {
    const base = { key: 'pix@example.com', merchantName: 'LOJA', merchantCity: 'RIO' };
    for (const amount of ['0', '0.00', 0, -1, '-1', '10.505', 10.555, 0.1 + 0.2, '1e3', '0x10', ' 10', '10,50', '', 'NaN', NaN]) {
      expect(() => buildStaticPixCode({ ...base, amount }), String(amount)).toThrow(RangeError);
    }
    // 13 characters at most: 9999999999.99 fits, 10000000000.00 does not.
    expect(buildStaticPixCode({ ...base, amount: '9999999999.99' })).toBe(referenceCode({ ...base, amount: 9999999999.99 }));
    expect(buildStaticPixCode({ ...base, amount: '9999999999.99' })).toContain('54139999999999.99');
    expect(() => buildStaticPixCode({ ...base, amount: '10000000000' })).toThrow(RangeError);
    expect(buildStaticPixCode({ ...base, amount: '10.500' })).toBe(referenceCode({ ...base, amount: 10.5 }));
  });

  it('rejects amounts with more than 2 decimals', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000_000 }), fc.integer({ min: 1, max: 9 }), (centavos, extra) => {
        const text = `${Math.floor(centavos / 100)}.${String(centavos % 100).padStart(2, '0')}${extra}`;
        expect(() => buildStaticPixCode({ key: 'pix@example.com', amount: text, merchantName: 'A', merchantCity: 'B' })).toThrow(
          RangeError,
        );
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('enforces key, txid, name and city limits', () => {
    const base = { key: 'pix@example.com', merchantName: 'LOJA', merchantCity: 'RIO' };
    const key77 = `${'a'.repeat(65)}@example.com`;
    expect(key77).toHaveLength(77);
    // Field 26 = 18 (GUI) + 4 + the key: a key of 77 fills its 99 characters exactly.
    const longest = buildStaticPixCode({ ...base, key: key77 });
    expect(longest.slice(0, 10)).toBe('0002012699');
    expect(parsed(longest).pixKey).toBe(key77);
    expect(() => buildStaticPixCode({ ...base, key: `a${key77}` })).toThrow(RangeError);
    expect(() => buildStaticPixCode({ ...base, key: `a${key77}` })).toThrow(/PIX key/);
    expect(() => buildStaticPixCode({ ...base, key: '' })).toThrow(RangeError);
    expect(() => buildStaticPixCode({ ...base, key: 'pix @example.com' })).toThrow(RangeError);

    expect(parsed(buildStaticPixCode({ ...base, txid: 'A'.repeat(25) })).txid).toBe('A'.repeat(25));
    expect(() => buildStaticPixCode({ ...base, txid: 'A'.repeat(26) })).toThrow(RangeError);
    expect(() => buildStaticPixCode({ ...base, txid: 'PEDIDO-1' })).toThrow(RangeError);
    expect(() => buildStaticPixCode({ ...base, txid: '' })).toThrow(RangeError);

    expect(() => buildStaticPixCode({ ...base, merchantName: '***' })).toThrow(RangeError);
    expect(() => buildStaticPixCode({ ...base, merchantCity: '' })).toThrow(RangeError);
  });

  it('rejects over-limit keys and txids', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...'abc123@.-'), minLength: 78, maxLength: 120 }),
        fc.stringMatching(/^[A-Za-z0-9]{26,40}$/),
        (key, txid) => {
          const base = { merchantName: 'LOJA', merchantCity: 'RIO' };
          expect(() => buildStaticPixCode({ ...base, key })).toThrow(RangeError);
          expect(() => buildStaticPixCode({ ...base, key: 'pix@example.com', txid })).toThrow(RangeError);
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });
});

describe('buildDynamicPixCode', () => {
  // API Pix's own example (openapi.yaml 2.9.0, a cob's pixCopiaECola without its recurrence
  // template 80): the same fields in the same order.
  it('writes 00, 01 = 12, 26 (GUI, 25 = location), 52, 53, 58, 59, 60, 62/05 = ***, 63 as pix-utils does', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[a-z0-9]{1,20}(\.[a-z0-9]{1,10}){1,2}(\/[A-Za-z0-9._~-]{1,12}){0,3}$/),
        fc.stringMatching(/^[A-Z0-9]{1,25}$/),
        fc.stringMatching(/^[A-Z0-9]{1,15}$/),
        (location, merchantName, merchantCity) => {
          fc.pre(location.length <= 77);
          const code = buildDynamicPixCode({ location, merchantName, merchantCity });
          const parsedCode = parsePix(code);
          if (hasError(parsedCode)) throw new Error(`pix-utils rejected ${code}: ${parsedCode.message}`);
          expect(parsedCode.type).toBe('DYNAMIC');
          if (parsedCode.type !== 'DYNAMIC') return;
          expect(parsedCode.url).toBe(location);
          expect(parsedCode.merchantName).toBe(merchantName);
          expect(parsedCode.merchantCity).toBe(merchantCity);
          const reference = createDynamicPix({ url: location, merchantName, merchantCity, oneTime: true });
          if (hasError(reference)) throw new Error(reference.message);
          // Equal bytes also pin what is absent: no key and no amount (54); they live in the payload.
          expect(code).toBe(reference.toBRCode());
          expect(code.slice(0, 12)).toBe('000201010212');
          expect(code).toContain('62070503***6304');
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });

  it('refuses a location with its scheme, with spaces, or longer than API Pix\'s 77 characters', () => {
    const base = { merchantName: 'LOJA', merchantCity: 'SAO PAULO' };
    expect(() => buildDynamicPixCode({ ...base, location: 'https://pix.example.com/qr/v2/abc' })).toThrow(RangeError);
    expect(() => buildDynamicPixCode({ ...base, location: 'pix.example.com/qr v2' })).toThrow(RangeError);
    expect(() => buildDynamicPixCode({ ...base, location: `pix.example.com/${'a'.repeat(62)}` })).toThrow(RangeError);
    expect(() => buildDynamicPixCode({ ...base, location: `pix.example.com/${'a'.repeat(61)}` })).not.toThrow();
  });
});
