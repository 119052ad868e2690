import { FlaskConical } from 'lucide-react';
import { useId } from 'react';
import { Switch } from '../../components/ui/switch.tsx';
import { frameMessages } from '../../lib/frame-messages.ts';
import { useT } from '../../lib/i18n.ts';
import { setTestMode, useTestMode } from '../../lib/test-mode.ts';
import { MAIN_ID } from './skip-link.tsx';

/**
 * "Viewing test data": the switch between the partner's live data and its test side, in the side bar's footer beside
 * the user (below the navigation: drawn in the portal's first render, it moves nothing of the page). Its words are
 * its label, so that a click on them switches too.
 */
export function TestModeSwitch() {
  const t = useT(frameMessages);
  const on = useTestMode((s) => s.on);
  const id = useId();
  return (
    <div className="mb-2 flex items-center justify-between gap-3" data-testid="test-mode-switch">
      <label htmlFor={id} className="flex min-w-0 cursor-pointer items-center gap-2 text-xs font-medium text-white">
        <FlaskConical className="size-3.5 shrink-0 text-amber-300" aria-hidden="true" />
        {t('testMode.switch')}
      </label>
      <Switch id={id} tone="dark" checked={on} onCheckedChange={setTestMode} label={t('testMode.switch')} />
    </div>
  );
}

/**
 * The strip across the top of every signed-in page while the test view is on: it says that nothing here is real
 * money, and leaves the test view. It exists only then (a live page has no room kept for it); on a reload in the test
 * view the portal's first render draws it, with the frame.
 */
export function TestModeBanner() {
  const t = useT(frameMessages);
  const leave = () => {
    setTestMode(false);
    // the button goes with the strip: focus goes to the page rather than to the document's start
    document.getElementById(MAIN_ID)?.focus();
  };
  return (
    <div
      role="status"
      data-testid="test-mode-banner"
      // across the page's whole width, over its padding, and flush with its top
      className="-mx-4 -mt-6 mb-6 flex flex-wrap items-center justify-between gap-x-4 gap-y-1.5 border-b border-warning/25 bg-warning-soft px-4 py-2.5 text-sm text-warning md:-mx-8 md:-mt-8 md:px-8"
    >
      <p className="flex min-w-0 items-start gap-2 font-medium">
        <FlaskConical className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        {t('testMode.banner')}
      </p>
      <button type="button" onClick={leave} className="ml-6 shrink-0 rounded font-semibold underline underline-offset-2 hover:no-underline sm:ml-0">
        {t('testMode.leave')}
      </button>
    </div>
  );
}
