/**
 * The MED return's status is stored in API Pix terms and published in English (return-status.ts):
 * every stored value has its published one, and the published set is the schema's.
 */
import { describe, expect, it } from 'vitest';
import { DisputeReturnStatusSchema, RETURN_STATUSES, publishedReturnStatus } from '../../../src/modules/disputes/return-status.ts';

describe('dispute return status at the edge', () => {
  it.each([
    ['PENDING', 'PENDING'],
    ['EM_PROCESSAMENTO', 'PROCESSING'],
    ['DEVOLVIDO', 'RETURNED'],
    ['NAO_REALIZADO', 'NOT_RETURNED'],
    [null, null],
  ] as const)('%s is published as %s', (stored, published) => {
    expect(publishedReturnStatus(stored)).toBe(published);
  });

  it('publishes exactly the schema’s values, a named component', () => {
    expect(DisputeReturnStatusSchema.enum).toEqual([...RETURN_STATUSES]);
    expect((DisputeReturnStatusSchema as { title?: string }).title).toBe('DisputeReturnStatus');
  });
});
