/**
 * Issue 24, finding 7: amounts are read from the JSON text the client sent, never through a
 * float (100.999999999999999999 used to become 101.00), decimal strings are accepted beside
 * numbers, and names refuse control, format and bidi characters.
 */
import { Decimal } from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { numberSource, parseJsonBody } from '../../src/http/json-body.ts';
import { BrlAmountInput, HumanName, StrictObject, TokenAmountInput } from '../../src/http/schemas.ts';
import { validatorCompiler } from '../../src/http/validator.ts';
import { ADMIN_TOKEN, expectErrorBody } from '../helpers/app.ts';
import { type Json, ordersTest } from '../modules/orders/helpers.ts';

type Validate = (input: unknown) => { value?: Json; error?: Array<{ instancePath: string; message: string }> };
const validatorOf = (schema: Parameters<typeof validatorCompiler>[0]['schema']) =>
  validatorCompiler({ schema, httpPart: 'body', method: 'POST', url: '/x' }) as Validate;
const bodyValidator = validatorOf(StrictObject({ amountBrl: BrlAmountInput('BRL'), amountCrypto: TokenAmountInput('tokens') }));
const validate = (json: string) => bodyValidator(parseJsonBody(json));

/** Decimal text with up to 12 integer digits and `decimals` decimals (the last one not 0 when there are any). */
const decimalText = (decimals: fc.Arbitrary<number>) =>
  fc.tuple(fc.bigInt({ min: 0n, max: 10n ** 12n - 1n }), decimals).chain(([whole, places]) =>
    places === 0
      ? fc.constant(whole.toString())
      : fc
          .tuple(fc.bigInt({ min: 0n, max: 10n ** BigInt(places - 1) - 1n }), fc.integer({ min: 1, max: 9 }))
          .map(([head, last]) => `${whole}.${head.toString().padStart(places - 1, '0')}${last}`),
  );

describe('the JSON parser keeps what the client wrote', () => {
  it('remembers the source text of numbers a float cannot hold as written', () => {
    const body = parseJsonBody('{"a":100.999999999999999999,"b":[1e2,1.5],"c":100.50}') as { a: number; b: number[]; c: number };
    expect(body.a).toBe(101);
    expect(numberSource(body, 'a', body.a)).toBe('100.999999999999999999');
    expect(numberSource(body.b, 0, body.b[0]!)).toBe('1e2');
    expect(numberSource(body.b, 1, body.b[1]!)).toBe('1.5');
    expect(numberSource(body, 'c', body.c)).toBe('100.50');
  });

  it('still refuses prototype poisoning and malformed JSON', () => {
    expect(() => parseJsonBody('{"__proto__":{"x":1}}')).toThrow(/not valid JSON/);
    expect(() => parseJsonBody('{"a":{"constructor":{"prototype":{"x":1}}}}')).toThrow(/not valid JSON/);
    expect(() => parseJsonBody('{"a":')).toThrow(/not valid JSON/);
    expect(parseJsonBody('{"constructor":1}')).toEqual({ constructor: 1 });
  });
});

describe('decimal body fields', () => {
  it('refuses more decimals than the field has, on the text as sent: never rounds', () => {
    expect(validate('{"amountBrl":100.999999999999999999,"amountCrypto":1}').error).toEqual([
      expect.objectContaining({ instancePath: '/amountBrl', message: 'must have at most 2 decimal places' }),
    ]);
    // A token's decimals are the token's (checked where the token is known); the text is exact either way.
    expect(validate('{"amountBrl":"10.001","amountCrypto":1.0000000000000000001}').error?.map((e) => e.instancePath)).toEqual(['/amountBrl']);
    expect(validate('{"amountBrl":1,"amountCrypto":1.0000000000000000001}').value?.amountCrypto).toBe('1.0000000000000000001');
  });

  it('accepts a decimal string beside a number, and hands the route the same plain text', () => {
    expect(validate('{"amountBrl":"100.50","amountCrypto":"0.000001"}').value).toEqual({ amountBrl: '100.5', amountCrypto: '0.000001' });
    expect(validate('{"amountBrl":100.50,"amountCrypto":0.000001}').value).toEqual({ amountBrl: '100.5', amountCrypto: '0.000001' });
  });

  it('reads a JSON number with an exponent exactly; a string must be plain decimal text', () => {
    expect(validate('{"amountBrl":1e2,"amountCrypto":5E-7}').value).toEqual({ amountBrl: '100', amountCrypto: '0.0000005' });
    expect(validate('{"amountBrl":1.0000001e2,"amountCrypto":1}').error?.[0]?.message).toBe('must have at most 2 decimal places');
    expect(validate('{"amountBrl":1e-400,"amountCrypto":1}').error?.[0]?.message).toBe('must have an exponent of at most 64');
    for (const text of ['"1e2"', '" 10"', '"10,00"', '"+10"', '"0x10"', '""', '"10."', '".5"']) {
      expect(validate(`{"amountBrl":${text},"amountCrypto":1}`).error?.[0], text).toMatchObject({ instancePath: '/amountBrl' });
    }
  });

  it('bounds range and length', () => {
    expect(validate('{"amountBrl":0,"amountCrypto":1}').error?.[0]?.message).toBe('must be greater than 0');
    expect(validate('{"amountBrl":"-0.00","amountCrypto":1}').error?.[0]?.message).toBe('must be greater than 0');
    expect(validate('{"amountBrl":10000000000000.01,"amountCrypto":1}').error?.[0]?.message).toBe('must be <= 10000000000000');
    expect(validate(`{"amountBrl":"${'9'.repeat(10_000)}","amountCrypto":1}`).error?.[0]?.message).toBe('must be at most 64 characters long');
    expect(validate(`{"amountBrl":1.${'0'.repeat(100)}1,"amountCrypto":1}`).error?.[0]?.message).toBe('must be at most 64 characters long');
    expect(validate('{"amountBrl":true,"amountCrypto":1}').error?.[0]?.message).toBe('must be a number or a string of decimal text');
  });

  it('property: any BRL text with at most 2 decimals, as a number or a string, arrives as exactly its value', () => {
    fc.assert(
      fc.property(decimalText(fc.integer({ min: 0, max: 2 })), fc.boolean(), fc.integer({ min: 0, max: 3 }), (text, asString, trailingZeros) => {
        const written = text.includes('.') || trailingZeros === 0 ? `${text}${'0'.repeat(trailingZeros)}` : `${text}.${'0'.repeat(trailingZeros)}`;
        const result = validate(`{"amountBrl":${asString ? `"${written}"` : written},"amountCrypto":1}`);
        if (new Decimal(text).isZero()) {
          expect(result.error?.[0]?.message).toBe('must be greater than 0');
        } else {
          expect(result.error).toBeUndefined();
          expect(new Decimal(result.value!.amountBrl).eq(new Decimal(text))).toBe(true);
          expect(result.value!.amountBrl).toBe(new Decimal(text).toFixed());
        }
      }),
      { numRuns: 500 },
    );
  });

  it('property: any text with 3 to 30 decimals is refused for BRL, however close a float would round it', () => {
    fc.assert(
      fc.property(decimalText(fc.integer({ min: 3, max: 30 })), fc.boolean(), (text, asString) => {
        const result = validate(`{"amountBrl":${asString ? `"${text}"` : text},"amountCrypto":1}`);
        expect(result.error?.[0]).toMatchObject({ instancePath: '/amountBrl', message: 'must have at most 2 decimal places' });
      }),
      { numRuns: 500 },
    );
  });

  it('property: an exponent number is read exactly, accepted when its value has at most 2 decimals', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 12n }), fc.integer({ min: -20, max: 3 }), (mantissa, exponent) => {
        const text = `${mantissa}e${exponent}`;
        const exact = new Decimal(text);
        const result = validate(`{"amountBrl":${text},"amountCrypto":1}`);
        if (exact.decimalPlaces() > 2) expect(result.error?.[0]?.message).toBe('must have at most 2 decimal places');
        else if (exact.gt('10000000000000')) expect(result.error?.[0]?.message).toBe('must be <= 10000000000000');
        else expect(result.value?.amountBrl).toBe(exact.toFixed());
      }),
      { numRuns: 500 },
    );
  });
});

describe('names refuse control, format and bidi characters', () => {
  const nameValidator = validatorOf(StrictObject({ name: HumanName() }));
  const HIDDEN = ['\u202E', '\u202A', '\u202D', '\u2066', '\u2069', '\u200E', '\u200F', '\u200B', '\u200D', '\uFEFF', '\u0007', '\u001B', '\u0085', '\u2028'];

  it('refuses each hidden character anywhere in a name, and accepts accented Portuguese', () => {
    for (const hidden of HIDDEN) {
      const refused = nameValidator({ name: `Maria ${hidden}Silva` }).error;
      expect(refused?.[0], `U+${hidden.codePointAt(0)!.toString(16)}`).toMatchObject({
        instancePath: '/name',
        message: 'must not be only spaces, nor contain control, format (zero-width, bidi) or line-separator characters',
      });
    }
    // A lone surrogate is refused before the pattern, as in any string (validator.ts).
    expect(nameValidator({ name: 'Maria \uD800Silva' }).error?.[0]).toMatchObject({ instancePath: '/name', message: 'must be well-formed Unicode (no lone surrogate)' });
    for (const name of ['João Conceição', "D'Ávila Müller-Ñúñez", 'Ærø Øst 山田', 'Zé']) expect(nameValidator({ name }).error, name).toBeUndefined();
    expect(nameValidator({ name: '   ' }).error).toBeDefined();
  });
});

describe('through the API', () => {
  const t = ordersTest();
  const post = (url: string, who: Parameters<typeof t.call>[2], json: string, headers: Record<string, string> = {}) =>
    t.call('POST', url, who, json, { 'content-type': 'application/json', ...headers });
  const patch = (url: string, who: Parameters<typeof t.call>[2], payload: Json) => t.ctx.app.inject({ method: 'PATCH', url: `/api/v1${url}`, headers: who.headers, payload });

  it('POST /payin: 100.999999999999999999 is 400 naming amountBrl; "100.50" and 100.50 make the same order', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const refused = expectErrorBody(await post('/payin', merchant, `{"receiverId":"${receiver.id}","amountBrl":100.999999999999999999}`), 400, 'VALIDATION_ERROR');
    expect(refused.details).toEqual({ 'body.amountBrl': 'must have at most 2 decimal places' });

    const asString = await post('/payin', merchant, `{"receiverId":"${receiver.id}","amountBrl":"100.50"}`);
    expect(asString.statusCode, asString.body).toBe(201);
    const asNumber = await post('/payin', merchant, `{"receiverId":"${receiver.id}","amountBrl":100.50}`);
    expect(asNumber.statusCode, asNumber.body).toBe(201);
    expect(asString.json().amountBrl).toBe(100.5);
    expect(asNumber.json().amountBrl).toBe(100.5);
    // Answers keep the spec's JSON numbers.
    expect(asString.body).toContain('"amountBrl":100.5,');

    expect((await post('/payin', merchant, `{"receiverId":"${receiver.id}","amountBrl":1e2}`)).json().amountBrl).toBe(100);
    expectErrorBody(await post('/payin', merchant, `{"receiverId":"${receiver.id}","amountBrl":"1e2"}`), 400, 'VALIDATION_ERROR');
  });

  it('an Idempotency-Key retry may write the amount either way: both fingerprint as the same value', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const headers = { 'idempotency-key': `amount-forms-${receiver.id}` };
    const first = await post('/payin', merchant, `{"receiverId":"${receiver.id}","amountBrl":100.5}`, headers);
    expect(first.statusCode, first.body).toBe(201);
    const retry = await post('/payin', merchant, `{"receiverId":"${receiver.id}","amountBrl":"100.50"}`, headers);
    expect(retry.statusCode, retry.body).toBe(201);
    expect(retry.json().id).toBe(first.json().id);
  });

  it('POST /quotes: more than 6 decimals of USDC is 400, even where a float would round it away', async () => {
    const merchant = await t.merchant();
    for (const amount of ['1.0000000000000000001', '"1.0000001"', '"5.1234567"']) {
      const refused = expectErrorBody(await post('/quotes', merchant, `{"type":"PAYOUT","amountCrypto":${amount}}`), 400, 'VALIDATION_ERROR');
      expect(refused.details, amount).toEqual({ 'body.amountCrypto': 'must have at most 6 decimals' });
    }
    const quoted = await post('/quotes', merchant, '{"type":"PAYOUT","amountCrypto":"10.123456"}');
    expect(quoted.statusCode, quoted.body).toBe(201);
    expect(quoted.json().amountCrypto).toBe(10.123456);
  });

  it('receiver limits, fee tiers and sandbox amounts are read exactly too', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const limits = (json: string) => t.call('PUT', `/receivers/${receiver.id}/limits`, merchant, json, { 'content-type': 'application/json' });
    const limitBody = (amount: string) => `{"dailyLimitBrl":${amount},"dailyTransactionLimit":null,"nightTransactionsEnabled":true}`;
    expect(expectErrorBody(await limits(limitBody('100.0000000000000000001')), 400, 'VALIDATION_ERROR').details).toEqual({
      'body.dailyLimitBrl': 'must have at most 2 decimal places',
    });
    expect((await limits(limitBody('"2500.10"'))).json().dailyLimitBrl).toBe(2500.1);

    const tiers = (fee: string) => t.call('PUT', '/fee-tiers/PAYIN', merchant, `[{"minVolumeBrl":0,"maxVolumeBrl":null,"merchantFeePercentage":${fee}}]`, { 'content-type': 'application/json' });
    expect(expectErrorBody(await tiers('0.0100000000000000001'), 400, 'VALIDATION_ERROR').details).toEqual({
      'body.0.merchantFeePercentage': 'must have at most 6 decimal places',
    });
    const accepted = await tiers('"0.0125"');
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().tiers[0].merchantFeePercentage).toBe(0.0125);

    const order = (await post('/payin', merchant, `{"receiverId":"${receiver.id}","amountBrl":10}`)).json();
    // The sandbox used to round 10.004 to 10.00 and pay the order in full.
    expect(expectErrorBody(await post(`/sandbox/orders/${order.id}/pix-payment`, merchant, '{"amountBrl":10.004}'), 400, 'VALIDATION_ERROR').details).toEqual({
      'body.amountBrl': 'must have at most 2 decimal places',
    });
  });

  it('receiver, payout recipient and merchant names refuse U+202E; "João Conceição" is accepted', async () => {
    const merchant = await t.merchant();
    const refusedName = expectErrorBody(await post('/receivers', merchant, JSON.stringify({ type: 'PF', document: '52998224725', name: 'Maria \u202Eacram', email: 'm@example.com' })), 400, 'VALIDATION_ERROR');
    expect(Object.keys(refusedName.details!)).toEqual(['body.name']);
    const accepted = await t.pendingReceiver(merchant, { name: 'João Conceição', addressStreet: 'Rua São João' });
    expect(accepted.name).toBe('João Conceição');

    const patched = await patch(`/receivers/${accepted.id}`, merchant, { name: 'João\u200B Conceição' });
    expect(Object.keys(expectErrorBody(patched, 400, 'VALIDATION_ERROR').details!)).toEqual(['body.name']);
    const address = await patch(`/receivers/${accepted.id}`, merchant, { addressCity: 'S\u2066ão Paulo' });
    expect(Object.keys(expectErrorBody(address, 400, 'VALIDATION_ERROR').details!)).toEqual(['body.addressCity']);

    const { merchant: payer, receiver } = await t.merchantWithReceiver();
    const payout = await t.call('POST', '/payout', payer, { receiverId: receiver.id, amountCrypto: 10, sourceToken: 'USDC', recipientName: 'Joana \u202ESouza' });
    expect(Object.keys(expectErrorBody(payout, 400, 'VALIDATION_ERROR').details!)).toEqual(['body.recipientName']);

    const admin = await t.ctx.app.inject({ method: 'POST', url: '/api/v1/admin/merchants', headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, payload: { name: 'Loja\uFEFF Falsa' } });
    expect(Object.keys(expectErrorBody(admin, 400, 'VALIDATION_ERROR').details!)).toEqual(['body.name']);
  });
});
