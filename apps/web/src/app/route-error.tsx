import { useRouteError } from 'react-router';
import { Alert } from '../components/ui/alert.tsx';
import { Button } from '../components/ui/button.tsx';
import { commonMessages } from '../lib/common-messages.ts';
import { useT } from '../lib/i18n.ts';

/** A screen whose code failed to load or render: say so, offer a reload (chunk failures: transaction-data §8). */
export function RouteError() {
  const t = useT(commonMessages);
  const error = useRouteError();
  const message = error instanceof Error ? error.message : t('somethingWrong');
  const chunk = /Loading (CSS )?chunk|dynamically imported module/i.test(message);
  return (
    <div className="mx-auto max-w-md p-8">
      <Alert tone="danger">{chunk ? t('routeError.chunk') : message}</Alert>
      <Button className="mt-4" variant="secondary" onClick={() => window.location.reload()}>
        {t('routeError.reload')}
      </Button>
    </div>
  );
}
