import { can } from '@portal/contract/permissions';
import { Globe2 } from 'lucide-react';
import { Suspense, lazy, useState } from 'react';
import { rateChange, type PartnerRate } from '@portal/contract/rates';
import { Button } from '../../components/ui/button.tsx';
import { useT, type Translate } from '../../lib/i18n.ts';
import { pendingRates, usePartnerRates } from '../../lib/partner/rates.ts';
import { useSession } from '../../lib/session/session-store.ts';
import { localCountryName as countryLabel } from '../../lib/country-names.ts';
import { bannersMessages } from './messages.ts';

/** The review dialog, loaded when first opened: the frame does not carry it. */
const CountryReviewDialog = lazy(async () => ({ default: (await import('./components/country-review-dialog.tsx')).CountryReviewDialog }));

/** The changes as a list in a sentence: "enable Benin and disable Kenya", "enable Benin, enable Ghana and disable Kenya". */
function describe(t: Translate<typeof bannersMessages.en>, rates: PartnerRate[]): string {
  const changes = rates.map((r) => t(`countries.change.${rateChange(r.status)!.action}`, { country: countryLabel(r.locale) }));
  return changes.length < 2 ? changes.join('') : t('countries.and', { first: changes.slice(0, -1).join(', '), last: changes.at(-1)! });
}

/**
 * The pending country status change banner (portal-core §2, §4): admins of B2B partners with enabled countries see
 * it while any rate is pending_enable or pending_disable, with 'Review request' opening the review dialog.
 */
export function PendingCountriesBanner() {
  const t = useT(bannersMessages);
  const user = useSession((s) => s.user);
  const admin = can(user?.role, 'changeCountries');
  const rates = usePartnerRates({ poll: admin, enabled: admin });
  const [open, setOpen] = useState(false);
  const pending = pendingRates(rates.data?.rates);
  if (!user || !admin || (pending.length === 0 && !open)) return null;
  const own = pending.filter((r) => r.requestedBy?.id === user.id);
  const others = pending.filter((r) => r.requestedBy?.id !== user.id);
  // who asked: one admin by name (null when the server does not say who), or several
  const askers = [...new Set(others.map((r) => r.requestedBy?.name ?? null))];
  const mine = others.length === 0;
  const asked = () => {
    const changes = describe(t, others);
    if (askers.length > 1) return t('countries.askedByAdmins', { changes });
    return askers[0] ? t('countries.askedBy', { name: askers[0], changes }) : t('countries.askedByAnAdmin', { changes });
  };
  const message = mine
    ? t('countries.mine', { changes: describe(t, own) })
    : [asked(), t('countries.takesEffect'), ...(own.length > 0 ? [t('countries.mineToo', { changes: describe(t, own) })] : [])].join(' ');
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
            <span className="font-semibold">{t('countries.pending', { count: pending.length })}</span> {message}
          </p>
          <Button size="sm" variant={mine ? 'secondary' : 'primary'} className="shrink-0 self-start sm:self-auto" onClick={() => setOpen(true)}>
            {t('countries.review')}
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
