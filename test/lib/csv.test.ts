/**
 * src/lib/csv.ts: the cell rules, as a table and as properties. A file is read back two ways: as
 * RFC 4180 at commas (test/helpers/csv.ts), and as Excel in pt-BR reads it, at `;` outside
 * quotes; either way no piece a spreadsheet could evaluate starts with a formula.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvCell, csvRecord, neutraliseFormulas } from '../../src/lib/csv.ts';
import { parseCsv } from '../helpers/csv.ts';

const NUM_RUNS = 500;
const FORMULA_START = /^[=+\-@\t\r]/;

// Text rich in the characters that matter: separators, quotes, line ends and formula starts.
const risky = fc.string({ unit: fc.constantFrom('=', '+', '-', '@', '\t', '\r', '\n', ';', ',', '"', "'", 'a', '1', ' '), maxLength: 24 });
const anyText = fc.oneof(risky, fc.string({ maxLength: 24 }));

describe('csvCell', () => {
  it.each([
    ['inv-2;=2+3', `"inv-2;'=2+3"`],
    ['=1+1', `'=1+1`],
    ['a;b', '"a;b"'],
    ['a\tb', '"a\tb"'],
    ['-2;+3;@x', `"'-2;'+3;'@x"`],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['plain', 'plain'],
    ['', ''],
  ])('%j is written %j', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });

  it('leaves raw cells (our own numbers) unguarded, and null empty', () => {
    expect(csvCell('-12.50', { raw: true })).toBe('-12.50');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
  });

  it('reads back as one RFC 4180 field: the neutralised text, nothing lost but the added quotes', () => {
    fc.assert(
      fc.property(anyText, (value) => {
        const [record] = parseCsv(csvRecord([csvCell(value), 'next']));
        expect(record).toEqual([neutraliseFormulas(value), 'next']);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('a cell holding a separator, tab, quote or line end is quoted', () => {
    fc.assert(
      fc.property(anyText, (value) => {
        const cell = csvCell(value);
        if (/[",;\t\r\n]/.test(value)) expect(cell.startsWith('"') && cell.endsWith('"')).toBe(true);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('no piece starts a formula whether a spreadsheet splits at commas or at semicolons', () => {
    fc.assert(
      fc.property(fc.array(anyText, { minLength: 1, maxLength: 4 }), (values) => {
        const line = csvRecord(values.map((v) => csvCell(v))).slice(0, -2);
        // pt-BR Excel honouring quotes: every cell it sees starts guarded.
        for (const cell of parseCsv(`${line}\r\n`, ';')[0]!) expect(FORMULA_START.test(cell), JSON.stringify({ values, cell })).toBe(false);
        // A reader splitting at every `;`, quotes or not: each piece (past an opening quote) is guarded.
        for (const piece of line.split(';')) expect(FORMULA_START.test(piece.replace(/^"/, '')), JSON.stringify({ values, piece })).toBe(false);
        for (const field of parseCsv(`${line}\r\n`)[0]!) {
          for (const piece of field.split(';')) expect(FORMULA_START.test(piece), JSON.stringify({ values, piece })).toBe(false);
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('changes nothing in a text with no formula start', () => {
    fc.assert(
      fc.property(anyText, (value) => {
        if (value.split(';').every((piece) => !FORMULA_START.test(piece))) expect(neutraliseFormulas(value)).toBe(value);
      }),
      { numRuns: NUM_RUNS },
    );
  });
});
