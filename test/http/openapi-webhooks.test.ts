/**
 * The OpenAPI document's `webhooks` section (src/http/openapi-webhooks.ts): one POST per event of
 * the catalog GET /webhook/events serves, whose body, its $refs resolved, is exactly the catalog's
 * payload schema (the two cannot drift); the payloads are titled components, closed, with every
 * field required; the Standard Webhooks headers and a 2XX answer are documented.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoistNamedSchemas } from '../../src/http/openapi-components.ts';
import { type TestContext, createTestContext } from '../helpers/app.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('OpenAPI webhooks section', () => {
  let ctx: TestContext;
  let doc: Json;
  let catalog: Array<{ name: string; payload: Json }>;

  beforeAll(async () => {
    ctx = await createTestContext();
    doc = (await ctx.app.inject({ url: '/api/v1/openapi.json' })).json();
    const merchant = await ctx.createMerchant();
    catalog = (await ctx.app.inject({ url: '/api/v1/webhook/events', headers: { 'x-api-key': merchant.apiKey, 'x-api-secret': merchant.apiSecret } })).json().data;
  });
  afterAll(() => ctx.close());

  /** `schema` with every `$ref` replaced by its component (a description beside the $ref wins). */
  const resolve = (schema: unknown): unknown => {
    if (Array.isArray(schema)) return schema.map(resolve);
    if (typeof schema !== 'object' || schema === null) return schema;
    const { $ref, ...rest } = schema as Json;
    const own = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, key === 'mapping' ? value : resolve(value)]));
    return typeof $ref === 'string' ? { ...(resolve(doc.components.schemas[$ref.replace('#/components/schemas/', '')]) as Json), ...own } : own;
  };
  const bodyOf = (name: string) => doc.webhooks[name].post.requestBody.content['application/json'].schema as Json;

  it('has one entry per catalog event, in its order, each body the catalog payload schema exactly', () => {
    expect(Object.keys(doc.webhooks)).toEqual(catalog.map((entry) => entry.name));
    for (const entry of catalog) expect(resolve(bodyOf(entry.name)), entry.name).toEqual(entry.payload);
  });

  it('names each payload as a component, closed, every field required, `event` the constant name', () => {
    for (const entry of catalog) {
      const body = bodyOf(entry.name);
      expect(body.$ref, entry.name).toMatch(/^#\/components\/schemas\/[A-Za-z]+Event$/);
      const component = doc.components.schemas[body.$ref.split('/').pop()];
      const shapes: Json[] = component.oneOf ? component.oneOf.map((variant: Json) => resolve(variant)) : [component];
      for (const shape of shapes) {
        expect(shape.additionalProperties, `${entry.name} is closed`).toBe(false);
        expect([...shape.required].sort(), `${entry.name} requires every field`).toEqual(Object.keys(shape.properties).sort());
        expect(shape.properties.event.const).toBe(entry.name);
      }
    }
    // order.completed: one shape per order type, told apart by `type`.
    expect(doc.components.schemas.OrderCompletedEvent.discriminator).toEqual({
      propertyName: 'type',
      mapping: { PAYIN: '#/components/schemas/PayinCompletedEvent', PAYOUT: '#/components/schemas/PayoutCompletedEvent' },
    });
    expect(doc.components.schemas.OrderPixSendingEvent.properties).toHaveProperty('pspTransactionId');
    expect(doc.components.schemas.DisputeUpdatedEvent.properties.sequence).toMatchObject({ type: 'integer', minimum: 1 });
    expect(doc.components.schemas.DisputeReturnStatus.enum).toEqual(['PENDING', 'PROCESSING', 'RETURNED', 'NOT_RETURNED']);
  });

  it('documents the Standard Webhooks headers, no credentials and a 2XX meaning received', () => {
    for (const name of Object.keys(doc.webhooks)) {
      const post = doc.webhooks[name].post;
      expect(post.security).toEqual([]);
      expect(post.parameters.map((parameter: Json) => doc.components.parameters[parameter.$ref.split('/').pop()].name)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
      expect(Object.keys(post.responses)).toEqual(['2XX']);
      expect(post.requestBody.required).toBe(true);
    }
  });

  it('hoistNamedSchemas visits the webhooks section as it does paths', () => {
    const payload = { title: 'PingEvent', type: 'object', properties: { event: { const: 'ping' } } };
    const hoisted = hoistNamedSchemas({ paths: {}, webhooks: { ping: { post: { requestBody: { content: { 'application/json': { schema: payload } } } } } } });
    expect(hoisted.components.schemas.PingEvent).toEqual(payload);
    expect(hoisted.webhooks).toEqual({ ping: { post: { requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/PingEvent' } } } } } } });
  });
});
