/**
 * The documents' answer examples (src/http/openapi-response-examples.ts): every 2xx response with
 * content, in both documents, has an example for each of its media types, and every 4xx and 5xx
 * response shows the codes it can carry as examples of the Error object; each example is valid
 * against its response's schema (JSON Schema 2020-12, as OpenAPI 3.1 is, with formats), so a
 * route added without an example, or a schema changed under one, fails here.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_STATUS, type ErrorCode } from '../../src/errors.ts';
import { REQUEST_EXAMPLES } from '../../src/http/openapi-examples.ts';
import { DUPLICATE_OPERATION_IDS, RESPONSE_EXAMPLES } from '../../src/http/openapi-response-examples.ts';
import { ROUTE_CODES } from '../../src/http/response-examples/errors.ts';
import { type TestContext, createTestContext } from '../helpers/app.ts';

const addFormats = addFormatsPlugin as unknown as (ajv: Ajv2020) => void;

type Example = { summary?: string; value?: unknown; $ref?: string };
type Media = { schema: unknown; example?: unknown; examples?: Record<string, Example> };
type Operation = { operationId: string; responses: Record<string, { content?: Record<string, Media> }> };
type OpenApi = { paths: Record<string, Record<string, Operation>>; components: { examples?: Record<string, Example> } };

type Shown = { at: string; operationId: string; status: string; mediaType: string; media: Media; pointer: string; document: OpenApi };

/** Every response media type of the document, with the JSON pointer of its schema. */
function responsesOf(document: OpenApi): Shown[] {
  const escape = (segment: string) => segment.replaceAll('~', '~0').replaceAll('/', '~1');
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).flatMap(([method, operation]) =>
      Object.entries(operation.responses).flatMap(([status, response]) =>
        Object.entries(response.content ?? {}).map(([mediaType, media]) => ({
          at: `${method.toUpperCase()} ${path} ${status} ${mediaType}`,
          operationId: operation.operationId,
          status,
          mediaType,
          media,
          pointer: `/paths/${escape(path)}/${method}/responses/${status}/content/${escape(mediaType)}/schema`,
          document,
        })),
      ),
    ),
  );
}

/** A validator of the document's schemas by pointer, $refs resolved against its components. */
function validatorOf(document: OpenApi): (pointer: string) => ValidateFunction {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  ajv.addSchema(document, 'openapi');
  const compiled = new Map<string, ValidateFunction>();
  return (pointer) => {
    let validate = compiled.get(pointer);
    if (!validate) compiled.set(pointer, (validate = ajv.compile({ $ref: `openapi#${pointer}` })));
    return validate;
  };
}

describe('OpenAPI answer examples', () => {
  let ctx: TestContext;
  let documents: Array<{ name: string; document: OpenApi }>;
  let shown: Array<Shown & { validate: (pointer: string) => ValidateFunction }>;

  beforeAll(async () => {
    ctx = await createTestContext();
    const merchant = await ctx.app.inject({ url: '/api/v1/openapi.json' });
    const operations = await ctx.app.inject({ url: '/openapi.json' });
    documents = [
      { name: 'merchant', document: merchant.json() },
      { name: 'operations', document: operations.json() },
    ];
    shown = documents.flatMap(({ document }) => {
      const validate = validatorOf(document);
      return responsesOf(document).map((response) => ({ ...response, validate }));
    });
  });
  afterAll(() => ctx.close());

  const all = () => shown;

  it('every 2xx response with content has a valid example for each media type', () => {
    const successes = all().filter(({ status }) => status.startsWith('2'));
    expect(successes.length).toBeGreaterThan(130);
    const missing = successes.filter(({ media }) => media.example === undefined).map(({ at }) => at);
    expect(missing, 'add the example to a table of src/http/response-examples/').toEqual([]);
    const invalid = successes.flatMap(({ at, media, pointer, validate }) => {
      const check = validate(pointer);
      return check(media.example) ? [] : [`${at}: ${JSON.stringify(check.errors?.slice(0, 3))}`];
    });
    expect(invalid).toEqual([]);
  });

  it('every 4xx and 5xx response shows its codes, each an Error object of that status valid against the schema', () => {
    const failures = all().filter(({ status }) => Number(status) >= 400);
    expect(failures.length).toBeGreaterThan(1000);
    for (const { at, status, media, pointer, validate, document } of failures) {
      const examples = Object.entries(media.examples ?? {});
      expect(examples.length, at).toBeGreaterThan(0);
      for (const [name, example] of examples) {
        // Each code's example is written once, in components.examples, and referred to.
        expect(example.$ref, at).toBe(`#/components/examples/${name}`);
        const value = document.components.examples?.[name]?.value;
        const code = (value as { error: ErrorCode }).error;
        expect(name, at).toBe(code);
        expect(ERROR_STATUS[code], `${at} ${code}`).toBe(Number(status));
        const check = validate(pointer);
        expect(check(value), `${at} ${code}: ${JSON.stringify(check.errors)}`).toBe(true);
      }
    }
  });

  it("writes each code's example once per document, and only those it uses", () => {
    for (const { name, document } of documents) {
      const referred = new Set(responsesOf(document).flatMap(({ media }) => Object.keys(media.examples ?? {})));
      expect(Object.keys(document.components.examples ?? {}).sort(), name).toEqual([...referred].sort());
    }
  });

  it('shows the route-specific codes: the 422s of a PAYIN, a 409 with an Idempotency-Key', () => {
    const payin = documents[0]!.document.paths['/payin']!.post!.responses;
    expect(Object.keys(payin['422']!.content!['application/json']!.examples!)).toEqual(
      expect.arrayContaining(['KYC_NOT_APPROVED', 'LIMIT_EXCEEDED', 'QUOTE_EXPIRED', 'WALLET_OWNERSHIP_REQUIRED']),
    );
    expect(Object.keys(payin['503']!.content!['application/json']!.examples!)).toEqual(expect.arrayContaining(['PRICE_UNAVAILABLE', 'TREASURY_INSUFFICIENT_LIQUIDITY']));
    expect(Object.keys(payin['409']!.content!['application/json']!.examples!)).toEqual(['CONFLICT', 'IDEMPOTENCY_CONFLICT']);
    const getOrder = documents[0]!.document.paths['/orders/{id}']!.get!.responses;
    expect(Object.keys(getOrder['404']!.content!['application/json']!.examples!)).toEqual(['NOT_FOUND']);
  });

  it('the tables hold no example a document does not show (a renamed operation or status), and each operation once', () => {
    expect(DUPLICATE_OPERATION_IDS).toEqual([]);
    const successes = new Set(all().filter(({ status }) => status.startsWith('2')).map(({ operationId, status }) => `${operationId} ${status}`));
    const tabled = Object.entries(RESPONSE_EXAMPLES).flatMap(([operationId, byStatus]) => Object.keys(byStatus).map((status) => `${operationId} ${status}`));
    expect(tabled.filter((entry) => !successes.has(entry))).toEqual([]);
    const documented = new Set(all().map(({ operationId, status }) => `${operationId} ${status}`));
    const routeCodes = Object.entries(ROUTE_CODES).flatMap(([operationId, codes]) => codes.map((code) => `${operationId} ${ERROR_STATUS[code]}`));
    expect(routeCodes.filter((entry) => !documented.has(entry)), 'a route code whose status the route does not document').toEqual([]);
  });

  it('tells one story: the answers name the ids and amounts of the request examples', () => {
    const payinRequest = REQUEST_EXAMPLES.createPayin as { receiverId: string; amountBrl: number; quoteId: string; externalId: string };
    const payin = RESPONSE_EXAMPLES.createPayin![201] as { receiverId: string; amountBrl: number; externalId: string; status: string };
    expect(payin).toMatchObject({ receiverId: payinRequest.receiverId, amountBrl: payinRequest.amountBrl, externalId: payinRequest.externalId, status: 'AWAITING_PAYMENT' });
    expect((RESPONSE_EXAMPLES.createQuote![201] as { id: string }).id).toBe(payinRequest.quoteId);
    expect((RESPONSE_EXAMPLES.getReceiver![200] as { id: string }).id).toBe(payinRequest.receiverId);
    const payoutRequest = REQUEST_EXAMPLES.createPayout as { amountCrypto: number; pixKey: string; externalId: string };
    expect(RESPONSE_EXAMPLES.createPayout![201]).toMatchObject({ amountCrypto: payoutRequest.amountCrypto, pixKey: payoutRequest.pixKey, externalId: payoutRequest.externalId });
  });
});
