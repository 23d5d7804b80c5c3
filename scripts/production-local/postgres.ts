/**
 * The run's database on the local PostgreSQL server, fresh every run: the chain simulator keeps
 * its chain in memory, so the books of an earlier run would not match the new chain (drift from
 * the first reconciliation). A database is dropped only when production-local made it (its
 * comment says so); any other database of that name is refused, never touched.
 */
import pg from 'pg';

const MARK = 'made by npm run production-local; dropped and made again by its next run';

export async function createFreshDatabase(serverUrl: string, name: string): Promise<{ url: string; replaced: boolean }> {
  const client = new pg.Client({ connectionString: `${serverUrl}/postgres`, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
  } catch (err) {
    throw new Error(`cannot reach PostgreSQL at ${new URL(serverUrl).host} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}): start it, or pass --postgres postgresql://user@host:port`, { cause: err });
  }
  try {
    const existing = await client.query<{ comment: string | null }>('select shobj_description(oid, $2) as comment from pg_database where datname = $1', [name, 'pg_database']);
    const replaced = existing.rows.length > 0;
    if (replaced && existing.rows[0]!.comment !== MARK) {
      throw new Error(`database ${name} exists and was not made by production-local: it is left alone; pass another --database`);
    }
    // The name was checked as a plain SQL identifier (options.ts).
    if (replaced) await client.query(`drop database ${name} with (force)`);
    await client.query(`create database ${name}`);
    await client.query(`comment on database ${name} is '${MARK}'`);
    return { url: `${serverUrl}/${name}`, replaced };
  } finally {
    await client.end();
  }
}

/** Drops the smoke run's database at its end (only one production-local made). */
export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: `${serverUrl}/postgres`, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    const existing = await client.query<{ comment: string | null }>('select shobj_description(oid, $2) as comment from pg_database where datname = $1', [name, 'pg_database']);
    if (existing.rows[0]?.comment === MARK) await client.query(`drop database ${name} with (force)`);
  } finally {
    await client.end();
  }
}
