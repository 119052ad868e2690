import { Globe2 } from 'lucide-react';
import { Suspense, lazy, useState } from 'react';
import { countryName } from '@portal/contract/countries';
import { rateChange } from '@portal/contract/rates';
import { Button } from '../../components/ui/button.tsx';
import { pendingRates, usePartnerRates } from '../../lib/partner/rates.ts';
import { useSession } from '../../lib/session/session-store.ts';

/** The review dialog, loaded when first opened: the frame does not carry it. */
const CountryReviewDialog = lazy(async () => ({ default: (await import('./components/country-review-dialog.tsx')).CountryReviewDialog }));

/** The changes as a sentence: "Enable Benin and Disable Kenya". */
const describe = (changes: string[]) => (changes.length <= 2 ? changes.join(' and ') : `${changes.slice(0, -1).join(', ')} and ${changes.at(-1)}`);

/**
 * The pending country status change banner (portal-core §2, §4): admins of B2B partners with enabled countries see
 * it while any rate is pending_enable or pending_disable, with 'Review request' opening the review dialog.
 */
export function PendingCountriesBanner() {
  const user = useSession((s) => s.user);
  const admin = user?.role === 'admin';
  const rates = usePartnerRates({ poll: admin, enabled: admin });
  const [open, setOpen] = useState(false);
  const pending = pendingRates(rates.data?.rates);
  if (!admin || (pending.length === 0 && !open)) return null;
  const own = pending.filter((r) => r.requestedBy?.id === user.id);
  const others = pending.filter((r) => r.requestedBy?.id !== user.id);
  const changesOf = (rates: typeof pending) => describe(rates.map((r) => `${rateChange(r.status)!.action.toLowerCase()} ${countryName(r.locale)}`));
  const askers = [...new Set(others.map((r) => r.requestedBy?.name ?? 'An admin'))];
  const mine = others.length === 0;
  const message = mine
    ? `Your request to ${changesOf(own)} is waiting for another admin's approval.`
    : `${askers.length === 1 ? askers[0] : 'Admins'} asked to ${changesOf(others)}. It takes effect once another admin approves it.${own.length > 0 ? ` Your request to ${changesOf(own)} waits for another admin.` : ''}`;
  return (
    <>
      {pending.length > 0 && (
        <div
          role="status"
          data-testid="pending-countries-banner"
          className="flex flex-col gap-3 rounded-lg border border-brand-600/20 bg-brand-50 px-4 py-3 text-sm text-brand-800 sm:flex-row sm:items-center"
        >
          <Globe2 className="hidden size-4 shrink-0 sm:block" aria-hidden="true" />
          <p className="min-w-0 flex-1">
            <span className="font-semibold">{pending.length === 1 ? 'A country change is pending.' : `${pending.length} country changes are pending.`}</span>{' '}
            {message}
          </p>
          <Button size="sm" variant={mine ? 'secondary' : 'primary'} className="shrink-0 self-start sm:self-auto" onClick={() => setOpen(true)}>
            Review request
          </Button>
        </div>
      )}
      {open && pending.length > 0 && (
        <Suspense fallback={null}>
          <CountryReviewDialog open onOpenChange={setOpen} pending={pending} userId={user.id} />
        </Suspense>
      )}
    </>
  );
}
