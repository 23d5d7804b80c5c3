import { describe, expect, it } from 'vitest';
import { createBatchWriter } from '../../src/platform/batch-writer.ts';

/** A write the test releases by hand, recording each batch. */
function controlledWrite(fail: (rows: number[]) => boolean = () => false) {
  const batches: number[][] = [];
  const waiting: Array<() => void> = [];
  const write = (rows: number[]) =>
    new Promise<void>((resolve, reject) => {
      batches.push([...rows]);
      waiting.push(() => (fail(rows) ? reject(new Error(`batch ${rows.join(',')} failed`)) : resolve()));
    });
  const release = async () => {
    waiting.shift()?.();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { batches, write, release };
}

describe('batch writer (group commit)', () => {
  it('writes the first row at once and the rows that arrive meanwhile as one batch', async () => {
    const { batches, write, release } = controlledWrite();
    const writer = createBatchWriter(write, { maxBatch: 100 });
    const done: number[] = [];
    const adds = [1, 2, 3, 4].map((row) => writer.add(row).then(() => done.push(row)));
    expect(batches).toEqual([[1]]);
    expect(writer.pending).toBe(4);
    await release();
    expect(done).toEqual([1]);
    expect(batches).toEqual([[1], [2, 3, 4]]);
    await release();
    await Promise.all(adds);
    expect(done).toEqual([1, 2, 3, 4]);
    expect(writer.pending).toBe(0);
  });

  it('nothing resolves before its batch is written', async () => {
    const { write, release } = controlledWrite();
    const writer = createBatchWriter(write, { maxBatch: 100 });
    let resolved = false;
    void writer.add(1).then(() => (resolved = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(resolved).toBe(false);
    await release();
    expect(resolved).toBe(true);
  });

  it('caps a batch at maxBatch rows', async () => {
    const { batches, write, release } = controlledWrite();
    const writer = createBatchWriter(write, { maxBatch: 2 });
    const adds = [1, 2, 3, 4, 5, 6].map((row) => writer.add(row));
    for (let i = 0; i < 4; i++) await release();
    await Promise.all(adds);
    expect(batches).toEqual([[1], [2, 3], [4, 5], [6]]);
  });

  it('a failed batch is retried row by row: only the bad row fails', async () => {
    const { batches, write, release } = controlledWrite((rows) => rows.includes(3));
    const writer = createBatchWriter(write, { maxBatch: 100 });
    const outcomes = [1, 2, 3, 4].map((row) => writer.add(row).then(() => 'ok', (error: Error) => error.message));
    for (let i = 0; i < 5; i++) await release();
    expect(await Promise.all(outcomes)).toEqual(['ok', 'ok', 'batch 3 failed', 'ok']);
    expect(batches).toEqual([[1], [2, 3, 4], [2], [3], [4]]);
    // The writer keeps working after a failure.
    const later = writer.add(5);
    await release();
    await later;
    expect(batches.at(-1)).toEqual([5]);
  });

  it("answers each row with the write's result at its index, across batches", async () => {
    const batches: number[][] = [];
    const writer = createBatchWriter<number, boolean>(
      async (rows) => {
        batches.push([...rows]);
        return rows.map((row) => row % 2 === 0);
      },
      { maxBatch: 100 },
    );
    expect(await Promise.all([1, 2, 3, 4].map((row) => writer.add(row)))).toEqual([false, true, false, true]);
    expect(batches).toEqual([[1], [2, 3, 4]]);
  });
});
