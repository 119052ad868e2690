import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { useT } from '../../../lib/i18n.ts';
import { PAGE_TEXTS } from '../../../lib/page-texts.ts';
import { useFiatWallets } from '../../../lib/partner/fiat-wallets.ts';
import { useProfile } from '../../../lib/partner/profile.ts';
import { useAnalytics } from '../api/analytics.ts';
import { OverviewFigures } from '../components/figures.tsx';
import { OverviewControls } from '../components/overview-controls.tsx';
import { useOverviewControls } from '../hooks/use-overview-controls.ts';
import { overviewMessages } from '../messages.ts';

/**
 * The Overview (issue 46): how the partner's business moved over a period, from the rows of its tables: volumes per
 * type against the period before, success rates (over time, by country, channel and operator, and why the others
 * failed), the balance, and completion times per corridor. The controls live in the address; each figure opens the
 * table it was counted from.
 */
export function OverviewScreen() {
  const t = useT(overviewMessages);
  const c = useOverviewControls();
  const walletMode = useProfile().data?.partner.fiatWalletsEnabled ?? false;
  // the wallet choice lists the partner's fiat wallets, as the transaction tables do (the default USD one first)
  const wallets = useFiatWallets(walletMode).data?.map((w) => w.currency) ?? [];
  const analytics = useAnalytics(c.query);
  const figures = c.query ? analytics.data : undefined;
  return (
    <div>
      <PageHeader {...PAGE_TEXTS.overview} />
      <OverviewControls c={c} walletMode={walletMode} wallets={wallets} />
      {analytics.isError && c.query && (
        <Alert tone="danger" className="mb-6">
          <p>{t('loadFailed', { error: analytics.error.message })}</p>
          <Button className="mt-3" size="sm" variant="secondary" onClick={() => void analytics.refetch()}>
            {t('tryAgain')}
          </Button>
        </Alert>
      )}
      {/* a period that cannot be shown shows nothing (the controls say why); figures that failed leave the message alone */}
      {c.query && !(analytics.isError && !figures) && <OverviewFigures figures={figures} zone={c.zone} busy={analytics.isPlaceholderData} />}
    </div>
  );
}
