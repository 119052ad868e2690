import { Card } from '../../../components/ui/card.tsx';
import { SkeletonBar } from '../../../components/ui/skeleton.tsx';
import { SETTINGS_SECTIONS, Section } from './section.tsx';

/**
 * Settings before its data: each section with its real title and description (the words the screen draws, in the
 * same places) and grey bars for its fields. The page the server sends draws it (app/layout/page-skeleton.tsx), and
 * so does the screen until its sections' data is in, so that the sections never grow under the reader.
 */
export function SettingsSkeleton() {
  return (
    <div className="space-y-6">
      <Section {...SETTINGS_SECTIONS.lowBalance()}>
        <div className="flex flex-col gap-3 sm:flex-row">
          <SkeletonBar className="h-10 w-full sm:w-72" />
          <SkeletonBar className="h-10 w-24" />
        </div>
      </Section>
      <Section {...SETTINGS_SECTIONS.payout()}>
        <div className="space-y-4">
          <SkeletonBar className="h-10 w-full max-w-md" />
          <SkeletonBar className="h-20 w-full" />
        </div>
      </Section>
      <Section {...SETTINGS_SECTIONS.notifications()}>
        <SkeletonBar className="h-40 w-full" />
      </Section>
      <Section {...SETTINGS_SECTIONS.timeZone()}>
        <SkeletonBar className="h-5 w-64" />
      </Section>
      <Section {...SETTINGS_SECTIONS.language()}>
        <div className="flex flex-wrap gap-2">
          <SkeletonBar className="h-9 w-56" />
          <SkeletonBar className="h-9 w-20" />
          <SkeletonBar className="h-9 w-24" />
        </div>
      </Section>
      <Section {...SETTINGS_SECTIONS.startScreen()}>
        <div className="flex flex-wrap gap-2">
          <SkeletonBar className="h-9 w-32" />
          <SkeletonBar className="h-9 w-28" />
        </div>
      </Section>
      <Card className="p-6">
        <SkeletonBar className="h-10 w-full max-w-sm" />
      </Card>
    </div>
  );
}
