import { can } from '@portal/contract/permissions';
import { Plus } from 'lucide-react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { Alert, ErrorAlert } from '../../../components/ui/alert.tsx';
import { buttonClass } from '../../../components/ui/button.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { useT } from '../../../lib/i18n.ts';
import { PAGE_TEXTS } from '../../../lib/page-texts.ts';
import { useSession } from '../../../lib/session/session-store.ts';
import { useTransactionById } from '../api/search.ts';
import { TransactionTable } from '../components/transaction-table.tsx';
import { transactionsMessages } from '../messages.ts';
import { INITIATED_PAYMENTS, TRADES } from '../tables.ts';

export function TradesScreen() {
  return (
    <div>
      <PageHeader {...PAGE_TEXTS.trades} />
      <TransactionTable def={TRADES} walletMode={false} wallets={[]} />
    </div>
  );
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Initiated payments for whitelisted commercial partners; admin and treasury users start one from here
 * (/payments/initiate; the server decides who may).
 * /payments/{id} opens that payment's details (the navigation guard has already decided who may be here, and the
 * search answers the partner's own rows only); viewing a row puts its id in the address, so the link can be shared.
 */
export function PaymentsScreen() {
  const t = useT(transactionsMessages);
  const { id } = useParams();
  const navigate = useNavigate();
  const { search } = useLocation();
  const wanted = id && UUID.test(id) ? id.toLowerCase() : undefined;
  const linked = useTransactionById(INITIATED_PAYMENTS.key, wanted);
  const notFound = !!id && (!wanted || linked.data === null);
  const role = useSession((st) => st.user?.role);
  const canInitiate = can(role, 'initiatePayments');
  return (
    <div>
      <PageHeader
        {...PAGE_TEXTS.payments}
        actions={
          canInitiate && (
            <Link to="/payments/initiate" className={buttonClass()}>
              <Plus className="size-4" aria-hidden="true" />
              {t('payments.initiate')}
            </Link>
          )
        }
      />
      {notFound && (
        <Alert tone="danger" className="mb-4">
          {t('payments.notFound', { id })}
        </Alert>
      )}
      <ErrorAlert error={linked.error} className="mb-4" />
      <TransactionTable
        def={INITIATED_PAYMENTS}
        walletMode={false}
        wallets={[]}
        linked={id && linked.data ? linked.data : undefined}
        onViewChange={(row) => void navigate({ pathname: row ? `/payments/${row.id}` : '/payments', search }, { replace: !row })}
      />
    </div>
  );
}
