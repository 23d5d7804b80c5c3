import { describe, expect, it } from 'vitest';
import { inlineEnumDuplicates, missingSuccessExamples, unnamedDuplicates } from '../../scripts/check-openapi-generators.ts';

const status = { enum: ['OPEN', 'DONE'] };
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown, more: Record<string, unknown> = {}) => ({ content: { 'application/json': { schema, ...more } } });

describe('check-openapi-generators: the document rules', () => {
  it('finds an enum written out twice, in any order of its values, wherever it is (webhooks too)', () => {
    const document = {
      paths: { '/orders': { get: { parameters: [{ name: 'status', in: 'query', schema: { enum: ['DONE', 'OPEN'] } }] } } },
      components: { schemas: { Order: { type: 'object', properties: { status } } } },
      webhooks: { 'order.done': { post: { requestBody: json({ type: 'object', properties: { status: { ...status, description: 'Now' } } }) } } },
    };
    expect(inlineEnumDuplicates(document)).toEqual([
      ['#/paths/~1orders/get/parameters/0/schema', '#/components/schemas/Order/properties/status', '#/webhooks/order.done/post/requestBody/content/application~1json/schema/properties/status'],
    ]);
  });

  it('counts a union of single values (anyOf or oneOf of consts or one-value enums) as the enum of those values', () => {
    const union = { anyOf: [{ const: 'OPEN' }, { type: 'string', enum: ['DONE'] }] };
    const document = { components: { schemas: { A: { type: 'object', properties: { status: union } }, B: { type: 'object', properties: { status } }, C: { oneOf: [{ const: 'x' }, { type: 'object' }] } } } };
    expect(inlineEnumDuplicates(document)).toEqual([['#/components/schemas/A/properties/status', '#/components/schemas/B/properties/status']]);
  });

  it('lets an enum repeat by $ref, a single-value enum or const repeat, and ignores enums inside examples', () => {
    const document = {
      components: {
        schemas: {
          Status: status,
          A: { type: 'object', properties: { status: ref('Status'), type: { enum: ['PAYIN'] }, kind: { const: 'X' } }, examples: [{ enum: ['OPEN', 'DONE'] }] },
          B: { type: 'object', properties: { status: ref('Status'), type: { enum: ['PAYIN'] }, kind: { const: 'X' } } },
        },
      },
    };
    expect(inlineEnumDuplicates(document)).toEqual([]);
  });

  it('lists the 2xx responses with content and no example; an example on the media, the schema or its component counts', () => {
    const document = {
      paths: {
        '/a': {
          get: { responses: { '200': json(ref('Order')), '400': json(ref('Error')) } },
          post: { responses: { '201': json(ref('Order'), { example: { id: '1' } }) } },
          delete: { responses: { '204': { description: 'Gone' } } },
        },
        '/b': {
          get: { responses: { '200': json(ref('Page')) } },
          put: { responses: { '200': json({ type: 'object', examples: [{ id: '2' }] }) } },
          patch: { responses: { '200': json(ref('Order'), { examples: { one: { value: { id: '3' } } } }) } },
        },
        '/c': { get: { responses: { '200': { $ref: '#/components/responses/Csv' } } } },
      },
      components: {
        schemas: { Order: { type: 'object' }, Page: { type: 'object', examples: [{ data: [] }] }, Error: { type: 'object' } },
        responses: { Csv: { description: 'A file', content: { 'text/csv': { schema: { type: 'string' } } } } },
      },
    };
    expect(missingSuccessExamples(document)).toEqual(['GET /a 200 application/json', 'GET /c 200 text/csv']);
  });

  it('still finds one object schema written out twice (rule 4)', () => {
    const order = { type: 'object', properties: { id: { type: 'string' } } };
    expect(unnamedDuplicates({ paths: { '/a': { get: { responses: { '200': json(order) } } }, '/b': { get: { responses: { '200': json({ ...order, description: 'Another' }) } } } } })).toHaveLength(1);
  });
});
