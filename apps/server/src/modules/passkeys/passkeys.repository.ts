import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { auditChange, type AuditEvent } from '../../lib/audit.repository.ts';

type Owner = { partnerId: string; userId: string };

const LISTED = ['id', 'name', 'synced', 'user_agent', 'created_at', 'last_used_at', 'disabled_at'] as const;

/** Passkeys and their ceremonies. */
export function createPasskeysRepository(db: Kysely<DB>) {
  return {
    transaction: <T>(work: (trx: Transaction<DB>) => Promise<T>) => db.transaction().execute(work),
    audit: (event: AuditEvent, trx: Transaction<DB>) => auditChange(trx, event),

    /** A user's passkeys, the newest first. */
    listOwn: (o: Owner) =>
      db.selectFrom('passkeys').select(LISTED).where('partner_id', '=', o.partnerId).where('user_id', '=', o.userId).orderBy('created_at', 'desc').execute(),

    /** Credential ids of a user's passkeys: the browser is told not to make a second one on the same authenticator. */
    credentialIds: (o: Owner) =>
      db.selectFrom('passkeys').select(['credential_id', 'transports']).where('partner_id', '=', o.partnerId).where('user_id', '=', o.userId).execute(),

    /** A ceremony begun: its challenge, for a few minutes. */
    async beginCeremony(values: { purpose: 'add' | 'sign-in'; owner?: Owner; challenge: string; expiresAt: Date; now: Date }) {
      // ceremonies never finished are forgotten as new ones begin
      await db.deleteFrom('passkey_ceremonies').where('expires_at', '<', values.now).execute();
      const row = await db
        .insertInto('passkey_ceremonies')
        .values({
          purpose: values.purpose,
          partner_id: values.owner?.partnerId ?? null,
          user_id: values.owner?.userId ?? null,
          challenge: values.challenge,
          expires_at: values.expiresAt,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    /** Takes a ceremony (once: a second answer to it finds none); undefined when unknown, used or of another kind. */
    takeCeremony: (id: string, purpose: 'add' | 'sign-in') =>
      db.deleteFrom('passkey_ceremonies').where('id', '=', id).where('purpose', '=', purpose).returningAll().executeTakeFirst(),

    /** Stores a new passkey unless its credential is stored already (for anyone); the row as listed, or undefined. */
    insert(
      trx: Transaction<DB>,
      values: Owner & {
        credentialId: string;
        publicKey: Uint8Array;
        counter: number;
        transports: string[];
        synced: boolean;
        name: string;
        userAgent: string | null;
      },
    ) {
      return trx
        .insertInto('passkeys')
        .values({
          partner_id: values.partnerId,
          user_id: values.userId,
          credential_id: values.credentialId,
          public_key: Buffer.from(values.publicKey),
          counter: values.counter,
          transports: values.transports,
          synced: values.synced,
          name: values.name,
          user_agent: values.userAgent,
        })
        .onConflict((c) => c.column('credential_id').doNothing())
        .returning(LISTED)
        .executeTakeFirst();
    },

    /** How many passkeys a user keeps, counted under a lock on the user's row (two adds at once cannot pass the limit). */
    async countLocked(trx: Transaction<DB>, o: Owner) {
      await trx.selectFrom('users').select('id').where('partner_id', '=', o.partnerId).where('id', '=', o.userId).forUpdate().executeTakeFirst();
      const row = await trx
        .selectFrom('passkeys')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('partner_id', '=', o.partnerId)
        .where('user_id', '=', o.userId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** The passkey of a credential, whoever's it is: a sign-in learns who signs in from the passkey. */
    byCredential: (credentialId: string) => db.selectFrom('passkeys').selectAll().where('credential_id', '=', credentialId).executeTakeFirst(),

    /**
     * Records a use: the counter moves to `counter` only if that is ahead of the stored one (or both are 0: an
     * authenticator that keeps no counter), in one statement, so two answers with one counter value cannot both pass.
     */
    async recordUse(trx: Transaction<DB>, p: { partnerId: string; id: string }, counter: number, now: Date) {
      const row = await trx
        .updateTable('passkeys')
        .set({ counter, last_used_at: now })
        .where('partner_id', '=', p.partnerId)
        .where('id', '=', p.id)
        .where('disabled_at', 'is', null)
        .where('counter', counter === 0 ? '=' : '<', String(counter))
        .returning('id')
        .executeTakeFirst();
      return row !== undefined;
    },

    disable: (trx: Transaction<DB>, p: { partnerId: string; id: string }, now: Date) =>
      trx
        .updateTable('passkeys')
        .set({ disabled_at: now })
        .where('partner_id', '=', p.partnerId)
        .where('id', '=', p.id)
        .where('disabled_at', 'is', null)
        .execute(),

    rename: (trx: Transaction<DB>, o: Owner, id: string, name: string) =>
      trx
        .updateTable('passkeys')
        .set({ name })
        .where('partner_id', '=', o.partnerId)
        .where('user_id', '=', o.userId)
        .where('id', '=', id)
        .returning(['id', 'name'])
        .executeTakeFirst(),

    remove: (trx: Transaction<DB>, o: Owner, id: string) =>
      trx
        .deleteFrom('passkeys')
        .where('partner_id', '=', o.partnerId)
        .where('user_id', '=', o.userId)
        .where('id', '=', id)
        .returning(['id', 'name'])
        .executeTakeFirst(),
  };
}

export type PasskeysRepository = ReturnType<typeof createPasskeysRepository>;
