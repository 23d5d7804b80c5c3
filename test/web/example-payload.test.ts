/** The event catalog page's example bodies, built from each event's JSON Schema (web/src/pages/developers/example-payload.ts). */
import { describe, expect, it } from 'vitest';
import { exampleBody, exampleOf } from '../../web/src/pages/developers/example-payload.ts';

describe('example payloads', () => {
  it('uses the schema’s examples, enums and formats, and the non-null branch of a nullable', () => {
    const schema = {
      type: 'object',
      properties: {
        event: { type: 'string' },
        orderId: { type: 'string', format: 'uuid' },
        status: { type: 'string', enum: ['COMPLETED', 'FAILED'] },
        amountBrl: { type: 'string', examples: ['150.00'] },
        reason: { anyOf: [{ type: 'null' }, { type: 'string' }] },
        count: { type: 'integer', minimum: 0 },
        tags: { type: 'array', items: { type: 'string', const: 'x' } },
        at: { type: 'string', format: 'date-time' },
        deliveryId: { type: 'string' },
      },
    };
    expect(exampleOf(schema)).toEqual({
      event: 'string',
      orderId: '01936f3e-8a4b-7c2d-9e1f-0a1b2c3d4e5f',
      status: 'COMPLETED',
      amountBrl: '150.00',
      reason: 'string',
      count: 0,
      tags: ['x'],
      at: '2026-11-26T10:30:00.000Z',
      deliveryId: 'string',
    });
    const body = exampleBody('order.completed', schema);
    expect(Object.keys(body)[0]).toBe('event');
    expect(body.event).toBe('order.completed');
    expect(body.deliveryId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('takes the first branch of a oneOf and stops at absurd depth', () => {
    expect(exampleOf({ oneOf: [{ type: 'object', properties: { a: { type: 'boolean' } } }, { type: 'string' }] })).toEqual({ a: true });
    expect(exampleOf(undefined)).toBeNull();
  });
});
