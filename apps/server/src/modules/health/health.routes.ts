import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Healthz, Readyz } from '@portal/contract/health';
import { ErrorBody } from '@portal/contract/errors';
import { checkDatabase, checkListeners } from '../../db/database.ts';
import { OUTAGE_RETRY_AFTER_SECONDS } from '../../db/outage.ts';
import { migrationStatus } from '../../db/migrate.ts';
import { documentRoutes } from '../../plugins/route-docs.ts';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  documentRoutes(app, { tag: 'health', errors: [] });

  app.get('/healthz', { schema: { operationId: 'healthz', summary: 'The process is alive', response: { 200: Healthz } } }, async () => ({
    status: 'ok' as const,
  }));

  app.get(
    '/readyz',
    {
      schema: {
        operationId: 'readyz',
        summary: 'The database is reachable and its migrations are current',
        response: { 200: Readyz, 503: Readyz.or(ErrorBody) },
      },
    },
    async (_request, reply) => {
      const { db, kind } = app.database;
      const database = await checkDatabase(db);
      const migrations = database.ok ? await migrationStatus(db).catch(() => ({ applied: 0, pending: -1 })) : { applied: 0, pending: -1 };
      const listeners = database.ok
        ? await checkListeners(app.database).catch(() => ({ ok: false as const, reason: 'the LISTEN connections could not be checked' }))
        : database;
      const reason = !database.ok
        ? database.reason
        : migrations.pending !== 0
          ? migrations.pending < 0
            ? 'the migrations could not be read'
            : `${migrations.pending} migrations pending`
          : !listeners.ok
            ? listeners.reason
            : undefined;
      // a balancer stops sending work here at once; a client is told when to ask again
      if (reason) void reply.header('retry-after', String(OUTAGE_RETRY_AFTER_SECONDS));
      return reply.status(reason ? 503 : 200).send({ status: reason ? 'not_ready' : 'ready', database: kind, migrations, ...(reason ? { reason } : {}) });
    },
  );
};
