import ng from 'flag-icons/flags/4x3/ng.svg?url';
import ke from 'flag-icons/flags/4x3/ke.svg?url';
import gh from 'flag-icons/flags/4x3/gh.svg?url';
import za from 'flag-icons/flags/4x3/za.svg?url';
import ug from 'flag-icons/flags/4x3/ug.svg?url';
import tz from 'flag-icons/flags/4x3/tz.svg?url';
import rw from 'flag-icons/flags/4x3/rw.svg?url';
import cm from 'flag-icons/flags/4x3/cm.svg?url';
import sn from 'flag-icons/flags/4x3/sn.svg?url';
import ci from 'flag-icons/flags/4x3/ci.svg?url';
import zm from 'flag-icons/flags/4x3/zm.svg?url';
import mw from 'flag-icons/flags/4x3/mw.svg?url';
import bj from 'flag-icons/flags/4x3/bj.svg?url';
import tg from 'flag-icons/flags/4x3/tg.svg?url';
import bf from 'flag-icons/flags/4x3/bf.svg?url';
import cd from 'flag-icons/flags/4x3/cd.svg?url';
import bw from 'flag-icons/flags/4x3/bw.svg?url';
import { localCountryName } from '../../lib/country-names.ts';
import { cn } from './cn.ts';

/**
 * Flags of the served markets (SVG, 4:3, from flag-icons): images, not emoji, which many desktops draw as two
 * letters. Another country shows its two-letter code in a flag-sized box.
 */
const FLAGS: Record<string, string> = {
  NG: ng,
  KE: ke,
  GH: gh,
  ZA: za,
  UG: ug,
  TZ: tz,
  RW: rw,
  CM: cm,
  SN: sn,
  CI: ci,
  ZM: zm,
  MW: mw,
  BJ: bj,
  TG: tg,
  BF: bf,
  CD: cd,
  BW: bw,
};

export function CountryFlag({ locale, className }: { locale: string; className?: string }) {
  const src = FLAGS[locale.toUpperCase()];
  const box = cn('inline-block h-[15px] w-5 shrink-0 rounded-[3px] ring-1 ring-black/10', className);
  if (!src) {
    return (
      <span className={cn(box, 'bg-canvas text-center text-[8px] font-semibold leading-[15px] text-muted')} aria-hidden="true">
        {locale.toUpperCase()}
      </span>
    );
  }
  return <img src={src} alt="" aria-hidden="true" className={cn(box, 'object-cover')} title={localCountryName(locale)} />;
}
