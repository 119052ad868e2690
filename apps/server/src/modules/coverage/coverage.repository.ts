import { sql, type Kysely } from 'kysely';
import type { RampType } from '@portal/contract/coverage';
import type { DB } from '../../db/schema.ts';

/** The coverage module's SQL: channels and payment networks, global reference tables; partners see active rows only. */

type Narrowing = { country?: string; rampType?: RampType };

export function activeChannels(db: Kysely<DB>, where: Narrowing) {
  let query = db.selectFrom('channels').selectAll().where('status', '=', 'active');
  if (where.country) query = query.where('country', '=', where.country);
  if (where.rampType) query = query.where('ramp_type', '=', where.rampType);
  return query.orderBy('country').orderBy('channel_type').orderBy('ramp_type').orderBy('id').execute();
}

/**
 * Active networks, each with the active channels it is reached through (a channel taken out of service drops out of
 * its networks' lists at once); with a ramp type, only the networks reached through an active channel of it.
 */
export function activeNetworks(db: Kysely<DB>, where: Narrowing) {
  let query = db
    .selectFrom('payment_networks as n')
    .select([
      'n.id',
      'n.code',
      'n.name',
      'n.country',
      'n.status',
      'n.account_number_type',
      'n.feature_flag_enabled',
      'n.temp_disabled_for',
      sql<string[]>`array(select c.id from channels c where c.id = any(n.channel_ids) and c.status = 'active' order by c.ramp_type, c.channel_type)`.as('channel_ids'),
    ])
    .where('n.status', '=', 'active');
  if (where.country) query = query.where('n.country', '=', where.country);
  if (where.rampType) {
    const ramp = where.rampType;
    query = query.where((eb) =>
      eb.exists(
        eb.selectFrom('channels as c')
          .select('c.id')
          .where(sql<boolean>`c.id = any(n.channel_ids)`)
          .where('c.status', '=', 'active')
          .where('c.ramp_type', '=', ramp),
      ),
    );
  }
  return query.orderBy('n.country').orderBy('n.name').execute();
}
