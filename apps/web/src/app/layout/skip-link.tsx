/** The id of the page's main landmark, the target of the skip link. */
export const MAIN_ID = 'main-content';

/** The first stop of the Tab key: hidden until focused, it jumps over the navigation to the page's content. */
export function SkipLink() {
  return (
    <a
      href={`#${MAIN_ID}`}
      className="sr-only z-[70] rounded-md bg-white px-4 py-2 text-sm font-semibold text-brand-900 shadow-lg ring-2 ring-brand-600 focus:not-sr-only focus:fixed focus:left-4 focus:top-4"
    >
      Skip to main content
    </a>
  );
}
