import { commonMessages } from '../../lib/common-messages.ts';
import { useT } from '../../lib/i18n.ts';

/** The id of the page's main landmark, the target of the skip link. */
export const MAIN_ID = 'main-content';

/** The first stop of the Tab key: above the page until focused (no layout shift), it jumps over the navigation to the page's content. */
export function SkipLink() {
  const t = useT(commonMessages);
  return (
    <a
      href={`#${MAIN_ID}`}
      className="fixed left-4 top-4 z-[70] -translate-y-24 rounded-md bg-white px-4 py-2 text-sm font-semibold text-brand-900 shadow-lg ring-2 ring-brand-600 focus:translate-y-0 focus:outline-none"
    >
      {t('skipLink')}
    </a>
  );
}
