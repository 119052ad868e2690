import pg from 'pg';

/**
 * One query on a connection of its own to `url`, opened and closed around it: for tests that look into a database
 * whose leader may change between two looks (the cluster test, the soak).
 */
export async function queryOnce<T extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}
