import { describe, expect, it } from 'vitest';
import { describeResponses, hoistNamedSchemas } from '../../src/http/openapi-components.ts';

const transaction = { title: 'OrderTransaction', type: 'object', properties: { hash: { type: 'string' } } };
const order = { title: 'Order', type: 'object', properties: { id: { type: 'string' }, transactions: { type: 'array', items: transaction } } };
const answering = (status: string, schema: Record<string, unknown>, description = 'Default Response') => ({
  responses: { [status]: { description, content: { 'application/json': { schema } } } },
});

describe('hoistNamedSchemas and describeResponses', () => {
  it('makes each titled schema one component, innermost first, and every use a $ref', () => {
    const document = hoistNamedSchemas({
      paths: { '/payin': { post: answering('201', order) }, '/orders/{id}': { get: answering('200', { ...order, description: 'The order asked for' }) } },
      components: { schemas: {} },
    });
    expect(document.components.schemas).toEqual({
      OrderTransaction: transaction,
      Order: { ...order, properties: { ...order.properties, transactions: { type: 'array', items: { $ref: '#/components/schemas/OrderTransaction' } } } },
    });
    expect(document.paths['/payin']!.post!.responses!['201']!.content!['application/json']!.schema).toEqual({ $ref: '#/components/schemas/Order' });
    // A use's own description stays beside the $ref; the component keeps none from it.
    expect(document.paths['/orders/{id}']!.get!.responses!['200']!.content!['application/json']!.schema).toEqual({
      $ref: '#/components/schemas/Order',
      description: 'The order asked for',
    });
  });

  it("takes a named schema's description from a body or an answer, not from a parameter, which @fastify/swagger leaves without it", () => {
    const status = { title: 'OrderStatus', enum: ['OPEN', 'DONE'], description: "The order's status" };
    const { description: _moved, ...inParameter } = status;
    const document = hoistNamedSchemas({
      paths: {
        '/orders': { get: { parameters: [{ in: 'query', name: 'status', description: "The order's status", schema: inParameter }], ...answering('200', { type: 'object', properties: { status } }) } },
      },
    });
    expect(document.components.schemas.OrderStatus).toEqual(status);
    const operation = document.paths['/orders']!.get! as { parameters: Array<{ schema: unknown }> };
    expect(operation.parameters[0]!.schema).toEqual({ $ref: '#/components/schemas/OrderStatus' });
    // The operation's keys keep their order: the document's text changes only where a schema does.
    expect(Object.keys(operation)).toEqual(['parameters', 'responses']);
  });

  it('leaves a title inside an example alone', () => {
    const example = { title: 'Not a schema' };
    const document = hoistNamedSchemas({ paths: { '/x': { post: answering('200', { type: 'object', examples: [example] }) } } });
    expect(Object.keys(document.components.schemas)).toEqual([]);
  });

  it('refuses two different schemas under one title', () => {
    const other = { ...order, properties: { id: { type: 'integer' } } };
    expect(() => hoistNamedSchemas({ paths: { '/a': { get: answering('200', order) }, '/b': { get: answering('200', other) } } })).toThrow(
      /two different schemas are titled Order/,
    );
  });

  it('describes a success response from its schema, and keeps a description of its own', () => {
    const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
    const document = describeResponses({
      paths: {
        '/a': { post: answering('201', ref('Order')) },
        '/b': { get: answering('200', ref('WebhookDeliveryPage')) },
        '/c': { post: answering('202', ref('WebhookDelivery')) },
        '/d': { get: answering('200', { type: 'array', items: ref('FeeTier') }) },
        '/e': { post: answering('200', ref('KycSubmissionResult')) },
        '/f': { get: answering('200', ref('Order'), 'Chosen by the route') },
        '/g': { get: answering('200', { type: 'object' }) },
      },
      components: { schemas: {} },
    });
    const described = Object.values(document.paths).map((methods) => Object.values(methods)[0]!.responses![Object.keys(Object.values(methods)[0]!.responses!)[0]!]!.description);
    expect(described).toEqual([
      'The created order',
      'The page of webhook deliveries',
      'Accepted: the webhook delivery',
      'The list of fee tiers',
      'The KYC submission result',
      'Chosen by the route',
      'Default Response',
    ]);
  });
});
