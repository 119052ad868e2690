import { z } from 'zod';

export const Healthz = z.object({ status: z.literal('ok') });
export const Readyz = z.object({
  status: z.enum(['ready', 'not_ready']),
  database: z.enum(['pglite', 'postgres']),
  migrations: z.object({ applied: z.number().int(), pending: z.number().int() }),
});
export type Readyz = z.infer<typeof Readyz>;
