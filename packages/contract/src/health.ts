import { z } from 'zod';

export const Healthz = z.object({ status: z.literal('ok') });
export const Readyz = z.object({
  status: z.enum(['ready', 'not_ready']),
  database: z.enum(['pglite', 'postgres']),
  migrations: z.object({ applied: z.number().int(), pending: z.number().int() }),
  /** why the instance is not ready: the database unreachable or read-only, migrations pending, shutting down */
  reason: z.string().optional(),
});
export type Readyz = z.infer<typeof Readyz>;
