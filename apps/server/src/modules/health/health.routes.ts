import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Healthz, Readyz } from '@portal/contract/health';
import { ErrorBody } from '@portal/contract/errors';
import { ping } from '../../db/database.ts';
import { migrationStatus } from '../../db/migrate.ts';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/healthz',
    { schema: { operationId: 'healthz', tags: ['health'], summary: 'The process is alive', response: { 200: Healthz } } },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        operationId: 'readyz',
        tags: ['health'],
        summary: 'The database is reachable and its migrations are current',
        response: { 200: Readyz, 503: Readyz.or(ErrorBody) },
      },
    },
    async (_request, reply) => {
      const { db, kind } = app.database;
      const reachable = await ping(db);
      const migrations = reachable ? await migrationStatus(db) : { applied: 0, pending: -1 };
      const ready = reachable && migrations.pending === 0;
      return reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not_ready', database: kind, migrations });
    },
  );
};
