/**
 * The MED claim pages' data rules (web/src/pages/disputes/defense-rules.ts, web/src/lib/disputes.ts):
 * the defence form checks the API's DisputeDefenseRequest limits at their edges (and the body it
 * builds passes the API's own schema), the lists' search parameters drop what is malformed, a
 * deadline is near within 24 h and passed at its instant (only while the claim is OPEN), and only
 * http(s) evidence addresses become links.
 */
import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { DefenseBody } from '../../src/modules/disputes/schemas.ts';
import { deadlineUrgency, disputesSearch, safeHttpUrl } from '../../web/src/lib/disputes.ts';
import { checkDefense, defenseBody, type EvidenceRow } from '../../web/src/pages/disputes/defense-rules.ts';

const row = (fields: Partial<EvidenceRow> = {}): EvidenceRow => ({ key: 0, description: 'Comprovante', url: '', sha256: '', ...fields });

describe('the defence form\'s checks', () => {
  it('takes a justification of 10 to 1,500 characters, counted as code points and trimmed', () => {
    expect(checkDefense('123456789', [])).toEqual({ justification: 'justificationShort' });
    expect(checkDefense('  123456789  ', [])).toEqual({ justification: 'justificationShort' });
    expect(checkDefense('1234567890', [])).toEqual({});
    expect(checkDefense('é'.repeat(1500), [])).toEqual({});
    expect(checkDefense('🙂'.repeat(1500), [])).toEqual({});
    expect(checkDefense('x'.repeat(1501), [])).toEqual({ justification: 'justificationLong' });
    // The API counts as the form does: 1,500 emoji (3,000 UTF-16 units) pass, one more does not.
    expect(Value.Check(DefenseBody, { justification: '🙂'.repeat(1500) })).toBe(true);
    expect(checkDefense('🙂'.repeat(1501), [])).toEqual({ justification: 'justificationLong' });
    expect(Value.Check(DefenseBody, { justification: '🙂'.repeat(1501) })).toBe(false);
  });

  it('wants each piece of evidence described (1 to 500), with an http(s) address and a hex SHA-256 when given', () => {
    const justification = 'Entregue ao pagador.';
    expect(checkDefense(justification, [row({ description: '  ' })])).toEqual({ 'evidence.0.description': 'descriptionMissing' });
    expect(checkDefense(justification, [row(), row({ description: 'x'.repeat(501) })])).toEqual({ 'evidence.1.description': 'descriptionLong' });
    expect(checkDefense(justification, [row({ description: 'x'.repeat(500) })])).toEqual({});
    for (const url of ['ftp://example.com/a.pdf', 'javascript:alert(1)', 'example.com/a.pdf', `https://example.com/${'a'.repeat(1981)}`]) {
      expect(checkDefense(justification, [row({ url })]), url).toEqual({ 'evidence.0.url': 'url' });
    }
    expect(checkDefense(justification, [row({ url: `https://example.com/${'a'.repeat(1980)}` })])).toEqual({});
    expect(checkDefense(justification, [row({ sha256: 'a'.repeat(63) })])).toEqual({ 'evidence.0.sha256': 'sha256' });
    expect(checkDefense(justification, [row({ sha256: 'g'.repeat(64) })])).toEqual({ 'evidence.0.sha256': 'sha256' });
    expect(checkDefense(justification, [row({ sha256: 'AB'.repeat(32) })])).toEqual({});
  });

  it('builds a body the API\'s schema accepts: trimmed, empty optional fields left out, the hash in lower case', () => {
    const body = defenseBody('  O pagador recebeu a mercadoria.  ', [row({ description: ' Nota ', url: ' https://example.com/n.pdf ', sha256: 'AB'.repeat(32) }), row({ description: 'Conversa' })]);
    expect(body).toEqual({
      justification: 'O pagador recebeu a mercadoria.',
      evidence: [{ description: 'Nota', url: 'https://example.com/n.pdf', sha256: 'ab'.repeat(32) }, { description: 'Conversa' }],
    });
    expect(Value.Check(DefenseBody, body)).toBe(true);
    // What the form lets through, the API takes: at the limits too.
    const full = defenseBody('x'.repeat(1500), Array.from({ length: 10 }, () => row({ description: 'd'.repeat(500), url: `https://example.com/${'a'.repeat(1980)}` })));
    expect(checkDefense(full.justification, Array.from({ length: 10 }, () => row({ description: 'd'.repeat(500) })))).toEqual({});
    expect(Value.Check(DefenseBody, full)).toBe(true);
  });
});

describe('MED claims as data', () => {
  it('keeps a valid status and page in the address, and drops anything else', () => {
    expect(disputesSearch({ status: 'OPEN', page: 2 })).toEqual({ status: 'OPEN', page: 2 });
    expect(disputesSearch({ status: 'open', page: 1 })).toEqual({});
    expect(disputesSearch({ status: 'PENDING', page: 1.5 })).toEqual({});
    expect(disputesSearch({ page: '3' })).toEqual({ page: 3 });
  });

  it('says a deadline is near within 24 h and passed at its instant, for an OPEN claim only', () => {
    const deadline = '2026-12-08T12:00:00.000Z';
    const at = Date.parse(deadline);
    const open = { status: 'OPEN' as const, defenseDeadline: deadline };
    expect(deadlineUrgency(open, at - 24 * 3_600_000 - 1)).toBeNull();
    expect(deadlineUrgency(open, at - 24 * 3_600_000)).toBe('SOON');
    expect(deadlineUrgency(open, at - 1)).toBe('SOON');
    expect(deadlineUrgency(open, at)).toBe('PASSED');
    expect(deadlineUrgency({ ...open, status: 'DEFENDED' }, at + 1)).toBeNull();
  });

  it('makes links of http(s) evidence addresses only', () => {
    expect(safeHttpUrl('https://example.com/a.pdf')).toBe('https://example.com/a.pdf');
    expect(safeHttpUrl('javascript:alert(1)')).toBeNull();
    expect(safeHttpUrl('data:text/html,<b>x</b>')).toBeNull();
    expect(safeHttpUrl('not a url')).toBeNull();
  });
});
