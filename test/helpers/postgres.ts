import pg from 'pg';

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** Per run (pid), so two runs against one server never drop each other's template. */
export function templateNameFor(url: string): string {
  const name = new URL(url).pathname.slice(1) || 'postgres';
  return `${name}_template_${process.pid}`;
}

/** Runs statements on the server's maintenance database (CREATE/DROP DATABASE cannot run inside the target). */
export async function adminQuery(url: string, ...statements: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: withDatabase(url, 'postgres') });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}
