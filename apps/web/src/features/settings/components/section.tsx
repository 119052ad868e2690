import type { ReactNode } from 'react';
import { Card } from '../../../components/ui/card.tsx';
import { cn } from '../../../components/ui/cn.ts';
import { DEFAULT_LOW_BALANCE_LIMIT } from '@portal/contract/payout';
import { translator } from '../../../lib/i18n.ts';
import { settingsMessages } from '../messages.ts';

/** A section's heading: its title and what it holds. */
export type SectionTexts = { title: string; description: string };

/**
 * The sections of Settings, in their order: the screen's and its skeleton's words, each looked up in the language in
 * force when the section is drawn (`<Section {...SETTINGS_SECTIONS.payout()}>`). A section whose words live in
 * another part's catalogue gives them the same way, with that part's translator.
 */
export const SETTINGS_SECTIONS = {
  lowBalance: () => {
    const t = translator(settingsMessages);
    return { title: t('sections.lowBalance.title'), description: t('sections.lowBalance.description', { limit: Number(DEFAULT_LOW_BALANCE_LIMIT) }) };
  },
  payout: () => sectionTexts('payout'),
  notifications: () => sectionTexts('notifications'),
  timeZone: () => sectionTexts('timeZone'),
  language: () => sectionTexts('language'),
  startScreen: () => sectionTexts('startScreen'),
} satisfies Record<string, () => SectionTexts>;

function sectionTexts(section: 'payout' | 'notifications' | 'timeZone' | 'language' | 'startScreen'): SectionTexts {
  const t = translator(settingsMessages);
  return { title: t(`sections.${section}.title`), description: t(`sections.${section}.description`) };
}

export function Section({ title, description, children }: { title: string; description: string; children: ReactNode }) {
  return (
    <Card className="p-6">
      <h2 className="text-base font-semibold">{title}</h2>
      <p className="mt-1 text-sm text-muted">{description}</p>
      <div className="mt-5">{children}</div>
    </Card>
  );
}

/** A radio or checkbox styled as a chip. */
export const choiceInput = 'size-4 accent-brand-700';
export const chip = (on: boolean) =>
  cn('inline-flex cursor-pointer items-center gap-2 rounded-lg border px-3 py-2 text-sm', on ? 'border-brand-700 bg-brand-50' : 'border-line bg-white');

/** Chips under their legend; `className` lays the chips out (a wrapping row unless said). */
export function ChipGroup({ legend, className = 'flex flex-wrap gap-2', children }: { legend: string; className?: string; children: ReactNode }) {
  return (
    <fieldset>
      <legend className="mb-2 text-sm font-medium">{legend}</legend>
      <div className={className}>{children}</div>
    </fieldset>
  );
}
