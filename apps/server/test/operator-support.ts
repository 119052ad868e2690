import type { Kysely } from 'kysely';
import type { DB } from '../src/db/schema.ts';
import type { LivePublisher } from '../src/lib/live-bus.ts';
import type { Mailer } from '../src/lib/mailer.ts';
import { createLedger } from '../src/modules/ledger/index.ts';
import { createOperatorService } from '../src/modules/partners/index.ts';
import type { InvalidatePartner } from '../src/modules/partners/partner-cache.ts';
import { createInvitationService } from '../src/modules/team/index.ts';
import { createTeamRepository } from '../src/modules/team/team.repository.ts';
import type { TestContext } from './harness.ts';

/** The operator's service as the composition root wires it for the CLI (composeOperatorTools): invitations sent with `mailer`, linking to `publicUrl`. */
export function operatorService(o: { db: Kysely<DB>; live: LivePublisher; mailer: Mailer; publicUrl: string; invalidatePartner?: InvalidatePartner }) {
  return createOperatorService({
    db: o.db,
    invitations: createInvitationService({ repo: createTeamRepository(o.db), mailer: o.mailer, publicUrl: o.publicUrl, now: Date.now, live: o.live }),
    ledger: createLedger(o.db),
    invalidatePartner: o.invalidatePartner,
  });
}

/** The operator's service over a test's app: its database and live bus, invitations to its memory mailer. */
export const testOperator = (t: TestContext) => operatorService({ db: t.database.db, live: t.app.liveBus, mailer: t.mailer, publicUrl: 'http://portal.test' });
