import fc from 'fast-check';
import { hasError, parsePix } from 'pix-utils';
import { describe, expect, it } from 'vitest';
import { cnpjCheckDigits, cpfCheckDigits } from '../../src/lib/br-documents.ts';
import {
  buildDynamicPixCode,
  buildStaticPixCode,
  crc16CcittFalse,
  parsePixCode,
  pixText,
  tlv,
  withCrc,
} from '../../src/lib/pix-brcode.ts';

const NUM_RUNS = 300;

// DOMAIN.md test vectors, to be reproduced byte for byte.
const VECTOR_1 =
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D';
const VECTOR_2 =
  '00020126370014br.gov.bcb.pix0115pix@example.com520400005303986540510.505802BR5913FULANO DE TAL6009SAO PAULO62130509PEDIDO12363043A5D';
const VECTOR_1_KEY = '123e4567-e12b-12d1-a456-426655440000';

// pix-utils quirks (2.8.2), which shape the assertions below:
//  - parsePix never reads field 01 (point of initiation): a parsed code has no "single use" flag,
//    so the dynamic property checks field 01 through our own parser only;
//  - a static code without field 54 parses with transactionAmount 0, not undefined; dynamic
//    codes expose no amount at all;
//  - it returns merchant name and city exactly as written (only its builder normalises them);
//  - it decides static vs dynamic by the presence of 26/01 (key) first, then 26/25 (url).

/** Our parser's verdict, so that "malformed" and "bad CRC" both count as a rejection. */
function ourVerdict(code: string): 'malformed' | 'bad crc' | 'ok' {
  try {
    return parsePixCode(code).crcValid ? 'ok' : 'bad crc';
  } catch (error) {
    if (error instanceof RangeError) return 'malformed';
    throw error;
  }
}

// --- arbitraries ---------------------------------------------------------------------------

/** Integer centavos 1..10^11 (R$ 0,01 .. R$ 1.000.000.000,00), as text, trimmed text or number. */
const amountArb = fc.integer({ min: 1, max: 100_000_000_000 }).chain((centavos) => {
  const fixed = `${Math.floor(centavos / 100)}.${String(centavos % 100).padStart(2, '0')}`;
  return fc
    .constantFrom<string | number>(fixed, String(centavos / 100), centavos / 100)
    .map((input) => ({ input, fixed, number: centavos / 100 }));
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
/** Already-clean ASCII descriptions, so the expected field is the input itself. */
const descriptionArb = fc.option(
  fc.stringMatching(/^[A-Za-z0-9]+( [A-Za-z0-9]+)*$/).filter((d) => d.length <= 30),
  { nil: undefined },
);

/** A payload location without scheme: domain plus a short path, at most 77 characters. */
const urlArb = fc
  .tuple(fc.domain(), fc.array(fc.stringMatching(/^[A-Za-z0-9._~-]{1,12}$/), { maxLength: 4 }))
  .map(([host, segments]) => [host, ...segments].join('/'))
  .filter((url) => url.length <= 77);

// --- tests ---------------------------------------------------------------------------------

describe('crc16CcittFalse', () => {
  it('has the CRC-16/CCITT-FALSE check value', () => {
    expect(crc16CcittFalse('123456789')).toBe('29B1');
    expect(crc16CcittFalse('')).toBe('FFFF');
  });

  it('matches the CRC of both DOMAIN vectors', () => {
    for (const vector of [VECTOR_1, VECTOR_2]) {
      expect(crc16CcittFalse(vector.slice(0, -4))).toBe(vector.slice(-4));
    }
  });

  it('pads to 4 uppercase hex digits', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary-ascii' }), (text) => {
        expect(crc16CcittFalse(text)).toMatch(/^[0-9A-F]{4}$/);
      }),
      { numRuns: NUM_RUNS },
    );
  });
});

describe('DOMAIN vectors', () => {
  it('vector 1 from the TLV primitives (its mixed-case name is below the builder, which uppercases)', () => {
    const code = withCrc(
      tlv('00', '01') +
        tlv('26', tlv('00', 'br.gov.bcb.pix') + tlv('01', VECTOR_1_KEY)) +
        tlv('52', '0000') +
        tlv('53', '986') +
        tlv('58', 'BR') +
        tlv('59', 'Fulano de Tal') +
        tlv('60', 'BRASILIA') +
        tlv('62', tlv('05', '***')),
    );
    expect(code).toBe(VECTOR_1);
  });

  it('vector 1 from the builder, with the name uppercased as the builder must', () => {
    const code = buildStaticPixCode({ key: VECTOR_1_KEY, merchantName: 'Fulano de Tal', merchantCity: 'Brasília' });
    expect(code).toBe(withCrc(VECTOR_1.slice(0, -8).replace('5913Fulano de Tal', '5913FULANO DE TAL')));
  });

  it('vector 2 from the builder, amount as text or number', () => {
    const input = { key: 'pix@example.com', merchantName: 'FULANO DE TAL', merchantCity: 'SAO PAULO', txid: 'PEDIDO123' };
    expect(buildStaticPixCode({ ...input, amount: '10.50' })).toBe(VECTOR_2);
    expect(buildStaticPixCode({ ...input, amount: 10.5 })).toBe(VECTOR_2);
    expect(buildStaticPixCode({ ...input, amount: '10.5', merchantName: 'Fulano de Tal', merchantCity: 'São Paulo' })).toBe(
      VECTOR_2,
    );
  });

  it('both vectors parse, with pix-utils and with ours', () => {
    const parsed = parsePixCode(VECTOR_2);
    expect(parsed.crcValid).toBe(true);
    expect(parsed.amount).toBe('10.50');
    expect([...parsed.fields.keys()]).toEqual(['00', '26', '52', '53', '54', '58', '59', '60', '62', '63']);
    expect(parsed.merchantAccount).toEqual(
      new Map([
        ['00', 'br.gov.bcb.pix'],
        ['01', 'pix@example.com'],
      ]),
    );
    expect(parsed.additionalData).toEqual(new Map([['05', 'PEDIDO123']]));
    expect(parsePixCode(VECTOR_1).amount).toBeUndefined();
    expect(parsePixCode(VECTOR_1).crcValid).toBe(true);

    const reference = parsePix(VECTOR_2);
    if (hasError(reference)) throw new Error(reference.message);
    expect(reference).toMatchObject({ type: 'STATIC', pixKey: 'pix@example.com', transactionAmount: 10.5, txid: 'PEDIDO123' });
    expect(hasError(parsePix(VECTOR_1))).toBe(false);
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
  it('round-trips through pix-utils and our parser', () => {
    fc.assert(
      fc.property(
        keyArb,
        fc.option(amountArb, { nil: undefined }),
        messyText(40),
        messyText(30),
        txidArb,
        descriptionArb,
        (key, amount, name, city, txid, description) => {
          const templateLength = 18 + 4 + key.length + (description === undefined ? 0 : 4 + description.length);
          const build = () =>
            buildStaticPixCode({ key, amount: amount?.input, merchantName: name, merchantCity: city, txid, description });
          if (templateLength > 99) {
            expect(build).toThrow(RangeError);
            return;
          }
          const code = build();
          const merchantName = pixText(name, 25);
          const merchantCity = pixText(city, 15);

          const reference = parsePix(code);
          if (hasError(reference)) throw new Error(`pix-utils rejected ${code}: ${reference.message}`);
          expect(reference).toMatchObject({
            type: 'STATIC',
            pixKey: key,
            merchantName,
            merchantCity,
            txid: txid ?? '***',
            infoAdicional: description,
            merchantCategoryCode: '0000',
            transactionCurrency: '986',
            countryCode: 'BR',
          });
          expect((reference as { transactionAmount?: number }).transactionAmount).toBe(amount?.number ?? 0);

          const ours = parsePixCode(code);
          expect(ours.crcValid).toBe(true);
          expect(ours.amount).toBe(amount?.fixed);
          expect(ours.fields.get('00')).toBe('01');
          expect(ours.fields.has('01')).toBe(false);
          expect(ours.fields.get('59')).toBe(merchantName);
          expect(ours.fields.get('60')).toBe(merchantCity);
          expect(ours.merchantAccount.get('00')).toBe('br.gov.bcb.pix');
          expect(ours.merchantAccount.get('01')).toBe(key);
          expect(ours.merchantAccount.get('02')).toBe(description);
          expect(ours.additionalData.get('05')).toBe(txid ?? '***');
          expect([...ours.fields.keys()].at(-1)).toBe('63');
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });

  it('a changed character breaks the CRC for both parsers', () => {
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
          expect(ourVerdict(mutated)).not.toBe('ok');
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
    expect(parsePixCode(buildStaticPixCode({ ...base, amount: '9999999999.99' })).amount).toBe('9999999999.99');
    expect(() => buildStaticPixCode({ ...base, amount: '10000000000' })).toThrow(RangeError);
    expect(parsePixCode(buildStaticPixCode({ ...base, amount: '10.500' })).amount).toBe('10.50');
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

  it('enforces key, txid, description, name and city limits', () => {
    const base = { key: 'pix@example.com', merchantName: 'LOJA', merchantCity: 'RIO' };
    const key77 = `${'a'.repeat(65)}@example.com`;
    expect(key77).toHaveLength(77);
    expect(parsePixCode(buildStaticPixCode({ ...base, key: key77 })).merchantAccount.get('01')).toBe(key77);
    expect(() => buildStaticPixCode({ ...base, key: `a${key77}` })).toThrow(RangeError);
    expect(() => buildStaticPixCode({ ...base, key: `a${key77}` })).toThrow(/PIX key/);
    expect(() => buildStaticPixCode({ ...base, key: '' })).toThrow(RangeError);
    expect(() => buildStaticPixCode({ ...base, key: 'pix @example.com' })).toThrow(RangeError);

    expect(parsePixCode(buildStaticPixCode({ ...base, txid: 'A'.repeat(25) })).additionalData.get('05')).toBe('A'.repeat(25));
    expect(() => buildStaticPixCode({ ...base, txid: 'A'.repeat(26) })).toThrow(RangeError);
    expect(() => buildStaticPixCode({ ...base, txid: 'PEDIDO-1' })).toThrow(RangeError);
    expect(() => buildStaticPixCode({ ...base, txid: '' })).toThrow(RangeError);

    // Field 26 = 18 (GUI) + 19 (key) + 4 + description: 58 characters of description fill 99 exactly.
    const fits = buildStaticPixCode({ ...base, description: 'd'.repeat(58) });
    expect(parsePixCode(fits).fields.get('26')).toHaveLength(99);
    expect(() => buildStaticPixCode({ ...base, description: 'd'.repeat(59) })).toThrow(RangeError);
    expect(() => buildStaticPixCode({ ...base, description: ' \t ' })).toThrow(RangeError);
    expect(parsePixCode(buildStaticPixCode({ ...base, description: 'Pão  de queijo' })).merchantAccount.get('02')).toBe(
      'Pao de queijo',
    );

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
  it('parses as dynamic with the url, single use, txid ***', () => {
    fc.assert(
      fc.property(urlArb, amountArb, messyText(40), messyText(30), (url, amount, name, city) => {
        const code = buildDynamicPixCode({ url, amount: amount.input, merchantName: name, merchantCity: city });

        const reference = parsePix(code);
        if (hasError(reference)) throw new Error(`pix-utils rejected ${code}: ${reference.message}`);
        expect(reference).toMatchObject({
          type: 'DYNAMIC',
          url,
          merchantName: pixText(name, 25),
          merchantCity: pixText(city, 15),
        });

        const ours = parsePixCode(code);
        expect(ours.crcValid).toBe(true);
        expect(ours.fields.get('01')).toBe('12');
        expect(ours.merchantAccount).toEqual(
          new Map([
            ['00', 'br.gov.bcb.pix'],
            ['25', url],
          ]),
        );
        expect(ours.additionalData).toEqual(new Map([['05', '***']]));
        expect(ours.amount).toBe(amount.fixed);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('enforces the url rules and the 99-character template', () => {
    const base = { amount: '1.00', merchantName: 'LOJA', merchantCity: 'RIO' };
    const url77 = `pix.example.com/${'x'.repeat(61)}`;
    expect(url77).toHaveLength(77);
    expect(parsePixCode(buildDynamicPixCode({ ...base, url: url77 })).fields.get('26')).toHaveLength(99);
    expect(() => buildDynamicPixCode({ ...base, url: `${url77}x` })).toThrow(RangeError);
    expect(() => buildDynamicPixCode({ ...base, url: 'https://pix.example.com/qr/1' })).toThrow(RangeError);
    expect(() => buildDynamicPixCode({ ...base, url: '' })).toThrow(RangeError);
    expect(() => buildDynamicPixCode({ ...base, url: 'pix.example.com/a b' })).toThrow(RangeError);
    expect(() => buildDynamicPixCode({ ...base, url: 'pix.example.com/qr/1', amount: '0' })).toThrow(RangeError);
  });
});

describe('parsePixCode', () => {
  it('rejects malformed TLV', () => {
    const bad = [
      '', // empty
      '0002', // length without value
      '000201260', // truncated header
      '0003AB', // value overruns the end
      '0A0201', // non-digit ID
      '00x101', // non-digit length
      '0002015900', // zero length
      '000201000201', // repeated ID
      '0002015903SÃO', // non-ASCII
      withCrc('000201260500141'), // bad sub-TLV in 26
      withCrc('000201620505999'), // bad sub-TLV in 62
    ];
    for (const code of bad) expect(() => parsePixCode(code), code).toThrow(RangeError);
  });

  it('reports a missing, misplaced or lowercase CRC as invalid', () => {
    const body = VECTOR_2.slice(0, -8);
    expect(parsePixCode(body).crcValid).toBe(false);
    expect(parsePixCode(VECTOR_2.replace(/3A5D$/, '3a5d')).crcValid).toBe(false);
    const crcFirst = `6304${crc16CcittFalse(`${body}6304`)}${body}`;
    expect(parsePixCode(crcFirst).crcValid).toBe(false);
    // 63 must be the last field: here 63 = 50E8 is the CRC of everything before the last 4
    // characters (50E8 is a fixed point found by search), but field 99 follows it.
    const notLast = `${body}630450E89904ABCD`;
    expect(crc16CcittFalse(notLast.slice(0, -4))).toBe('50E8');
    expect(parsePixCode(notLast).fields.get('63')).toBe('50E8');
    expect(parsePixCode(notLast).crcValid).toBe(false);
    expect(parsePixCode(VECTOR_2).crcValid).toBe(true);
  });
});
