import type { PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely';

/**
 * PGlite has one session. Every user of it (Kysely, pg-boss) takes this lock for the whole of a query or a
 * transaction, so that no statement of another caller lands inside someone else's transaction.
 */
export class SessionLock {
  #tail: Promise<void> = Promise.resolve();
  /** callers holding the lock or waiting for it */
  #pending = 0;

  acquire(): Promise<() => void> {
    let resolveNext!: () => void;
    const next = new Promise<void>((resolve) => (resolveNext = resolve));
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.#pending -= 1;
      resolveNext();
    };
    this.#pending += 1;
    const ready = this.#tail.then(() => release);
    this.#tail = this.#tail.then(() => next);
    return ready;
  }

  /** For the metrics: is the session in use, and how many callers wait for it. */
  get state(): { busy: boolean; waiting: number } {
    return { busy: this.#pending > 0, waiting: Math.max(0, this.#pending - 1) };
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await fn();
    } finally {
      release();
    }
  }
}

/** Runs one statement; without parameters it goes through the simple protocol, which allows several statements. */
export async function pgliteExecute<R>(pg: PGlite, text: string, params: readonly unknown[]): Promise<QueryResult<R>> {
  if (params.length === 0) {
    const results = await pg.exec(text);
    const last = results.at(-1);
    return { rows: (last?.rows ?? []) as R[], numAffectedRows: BigInt(last?.affectedRows ?? 0) };
  }
  const result = await pg.query<R>(text, params as unknown[]);
  return { rows: result.rows, numAffectedRows: BigInt(result.affectedRows ?? 0) };
}

class PGliteConnection implements DatabaseConnection {
  constructor(private readonly pg: PGlite) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return pgliteExecute<R>(this.pg, query.sql, query.parameters);
  }

  // refused when iterated, as an async iterator would; nothing to yield or await
  // eslint-disable-next-line require-yield, @typescript-eslint/require-await
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported on the embedded database');
  }
}

class PGliteDriver implements Driver {
  #release: (() => void) | undefined;
  readonly #connection: PGliteConnection;

  constructor(
    private readonly pg: PGlite,
    private readonly lock: SessionLock,
  ) {
    this.#connection = new PGliteConnection(pg);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    this.#release = await this.lock.acquire();
    return this.#connection;
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  releaseConnection(): Promise<void> {
    const release = this.#release;
    this.#release = undefined;
    release?.();
    return Promise.resolve();
  }

  async destroy(): Promise<void> {
    await this.pg.close();
  }
}

export class PGliteDialect implements Dialect {
  constructor(
    private readonly pg: PGlite,
    private readonly lock: SessionLock,
  ) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.pg, this.lock);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
}
