import { COUNTRY_CURRENCIES, type Country } from '@portal/contract/countries';
import type { AccountNumberType, RampType } from '@portal/contract/coverage';
import { nameUuid } from '../../lib/ids.ts';

/**
 * The provider's reference data for the African markets it serves: each market's platform rate (local currency per
 * US dollar), its channels (how money comes in and goes out: type, limits, fee, settlement time) and the payment
 * networks reached through them (the mobile-money operators and banks of the country, with the account number each
 * takes). Migration 0021 loads it; ids are name-based, so they are the same on every database.
 *
 * Figures are indicative: limits and fees in the local currency, settlement times in seconds. The USD fee is
 * derived from the local fee at the market's buy rate when loaded.
 */

type ChannelSpec = {
  type: 'momo' | 'bank' | 'eft' | 'p2p';
  ramps: RampType[];
  min: string;
  max: string;
  fee: string;
  /** seconds */
  settles: number;
  settlement: 'instant' | 'manual';
  /** the widget's upper limit when lower than the channel's */
  widgetMax?: string;
  inactive?: boolean;
};
type NetworkSpec = {
  code: string;
  name: string;
  accountNumberType: AccountNumberType;
  /** the channel types that reach it */
  via: ChannelSpec['type'][];
  inactive?: boolean;
  pausedFor?: RampType[];
};
type Market = { country: Country; buy: string; sell: string; channels: ChannelSpec[]; networks: NetworkSpec[] };

const BOTH: RampType[] = ['deposit', 'withdraw'];
const momo = (min: string, max: string, fee: string, extra: Partial<ChannelSpec> = {}): ChannelSpec => ({
  type: 'momo',
  ramps: BOTH,
  min,
  max,
  fee,
  settles: 60,
  settlement: 'instant',
  ...extra,
});
const bank = (min: string, max: string, fee: string, settles: number, extra: Partial<ChannelSpec> = {}): ChannelSpec => ({
  type: 'bank',
  ramps: BOTH,
  min,
  max,
  fee,
  settles,
  settlement: settles <= 3600 ? 'instant' : 'manual',
  ...extra,
});
const wallet = (code: string, name: string, extra: Partial<NetworkSpec> = {}): NetworkSpec => ({
  code,
  name,
  accountNumberType: 'phone',
  via: ['momo'],
  ...extra,
});
const lender = (code: string, name: string, extra: Partial<NetworkSpec> = {}): NetworkSpec => ({
  code,
  name,
  accountNumberType: 'bank',
  via: ['bank'],
  ...extra,
});

export const MARKETS: Market[] = [
  {
    country: 'KE',
    buy: '128.90',
    sell: '130.20',
    channels: [
      momo('10', '250000', '30', { widgetMax: '150000' }),
      bank('100', '5000000', '100', 900),
      { type: 'p2p', ramps: ['deposit'], min: '500', max: '1000000', fee: '50', settles: 1800, settlement: 'manual', inactive: true },
    ],
    networks: [
      wallet('MPESA', 'M-Pesa'),
      wallet('AIRTELMONEY', 'Airtel Money'),
      wallet('TKASH', 'T-Kash', { inactive: true }),
      lender('EQUITY', 'Equity Bank'),
      lender('KCB', 'KCB Bank'),
      lender('COOP', 'Co-operative Bank of Kenya'),
      lender('NCBA', 'NCBA Bank'),
      lender('ABSA', 'Absa Bank Kenya'),
      lender('STANBIC', 'Stanbic Bank Kenya'),
    ],
  },
  {
    country: 'NG',
    buy: '1520.00',
    sell: '1545.00',
    channels: [
      bank('1000', '50000000', '100', 120, { widgetMax: '5000000' }),
      { type: 'p2p', ramps: ['deposit'], min: '5000', max: '5000000', fee: '50', settles: 900, settlement: 'manual' },
    ],
    networks: [
      lender('ACCESS', 'Access Bank', { via: ['bank', 'p2p'] }),
      lender('GTB', 'Guaranty Trust Bank', { via: ['bank', 'p2p'] }),
      lender('ZENITH', 'Zenith Bank', { via: ['bank', 'p2p'] }),
      lender('FIRSTBANK', 'First Bank of Nigeria', { via: ['bank', 'p2p'] }),
      lender('UBA', 'United Bank for Africa', { via: ['bank', 'p2p'] }),
      lender('MONIEPOINT', 'Moniepoint MFB'),
      { code: 'OPAY', name: 'OPay', accountNumberType: 'app', via: ['bank'] },
      { code: 'PALMPAY', name: 'PalmPay', accountNumberType: 'app', via: ['bank'] },
      { code: 'KUDA', name: 'Kuda', accountNumberType: 'app', via: ['bank'] },
    ],
  },
  {
    country: 'GH',
    buy: '11.85',
    sell: '12.10',
    channels: [momo('1', '50000', '1.00'), bank('10', '500000', '5.00', 3600)],
    networks: [
      wallet('MTN', 'MTN Mobile Money'),
      wallet('TELECEL', 'Telecel Cash'),
      wallet('ATMONEY', 'AT Money'),
      lender('GCB', 'GCB Bank'),
      lender('ECOBANK', 'Ecobank Ghana'),
      lender('STANBIC', 'Stanbic Bank Ghana'),
      lender('FIDELITY', 'Fidelity Bank Ghana'),
      lender('CALBANK', 'CalBank'),
    ],
  },
  {
    country: 'ZA',
    buy: '17.65',
    sell: '17.90',
    channels: [
      { type: 'eft', ramps: BOTH, min: '50', max: '1000000', fee: '5.00', settles: 86_400, settlement: 'manual' },
      // real-time clearing (PayShap) caps a payment at R3,000
      bank('10', '3000', '2.50', 60),
    ],
    networks: [
      lender('STANDARDBANK', 'Standard Bank', { via: ['eft', 'bank'] }),
      lender('FNB', 'First National Bank', { via: ['eft', 'bank'] }),
      lender('ABSA', 'Absa Bank', { via: ['eft', 'bank'] }),
      lender('NEDBANK', 'Nedbank', { via: ['eft', 'bank'] }),
      lender('CAPITEC', 'Capitec Bank', { via: ['eft', 'bank'] }),
      lender('TYME', 'TymeBank', { via: ['eft'] }),
      lender('DISCOVERY', 'Discovery Bank', { via: ['eft'] }),
    ],
  },
  {
    country: 'UG',
    buy: '3640.00',
    sell: '3690.00',
    channels: [momo('500', '7000000', '1000'), bank('10000', '100000000', '5000', 7200)],
    networks: [
      wallet('MTN', 'MTN Mobile Money'),
      wallet('AIRTEL', 'Airtel Money'),
      lender('STANBIC', 'Stanbic Bank Uganda'),
      lender('CENTENARY', 'Centenary Bank'),
      lender('DFCU', 'dfcu Bank'),
      lender('ABSA', 'Absa Bank Uganda'),
    ],
  },
  {
    country: 'TZ',
    buy: '2510.00',
    sell: '2550.00',
    channels: [momo('1000', '5000000', '1500'), bank('10000', '50000000', '5000', 7200)],
    networks: [
      wallet('MPESA', 'M-Pesa'),
      wallet('MIXX', 'Mixx by Yas'),
      wallet('AIRTEL', 'Airtel Money'),
      wallet('HALOPESA', 'HaloPesa', { pausedFor: ['withdraw'] }),
      lender('CRDB', 'CRDB Bank'),
      lender('NMB', 'NMB Bank'),
      lender('NBC', 'NBC Bank'),
    ],
  },
  {
    country: 'RW',
    buy: '1445.00',
    sell: '1470.00',
    channels: [momo('100', '2000000', '200'), bank('5000', '20000000', '1000', 14_400)],
    networks: [
      wallet('MTN', 'MTN MoMo'),
      wallet('AIRTEL', 'Airtel Money'),
      lender('BK', 'Bank of Kigali'),
      lender('EQUITY', 'Equity Bank Rwanda'),
      lender('IMBANK', 'I&M Bank Rwanda'),
    ],
  },
  {
    country: 'CM',
    buy: '568.00',
    sell: '580.00',
    channels: [momo('100', '1000000', '150'), bank('10000', '20000000', '2000', 172_800, { ramps: ['withdraw'] })],
    networks: [
      wallet('MTN', 'MTN Mobile Money'),
      wallet('ORANGE', 'Orange Money'),
      lender('AFRILAND', 'Afriland First Bank'),
      lender('ECOBANK', 'Ecobank Cameroun'),
      lender('UBA', 'UBA Cameroun'),
    ],
  },
  {
    country: 'SN',
    buy: '568.00',
    sell: '580.00',
    channels: [momo('100', '1500000', '150'), bank('10000', '20000000', '1500', 172_800, { ramps: ['withdraw'] })],
    networks: [
      wallet('ORANGE', 'Orange Money'),
      { code: 'WAVE', name: 'Wave', accountNumberType: 'app', via: ['momo'] },
      wallet('FREE', 'Free Money'),
      lender('CBAO', 'CBAO Groupe Attijariwafa Bank'),
      lender('ECOBANK', 'Ecobank Sénégal'),
    ],
  },
  {
    country: 'CI',
    buy: '568.00',
    sell: '580.00',
    channels: [momo('100', '1500000', '150'), bank('10000', '20000000', '1500', 172_800, { ramps: ['withdraw'] })],
    networks: [
      wallet('ORANGE', 'Orange Money'),
      wallet('MTN', 'MTN MoMo'),
      wallet('MOOV', 'Moov Money'),
      { code: 'WAVE', name: 'Wave', accountNumberType: 'app', via: ['momo'] },
      lender('SGCI', "Société Générale Côte d'Ivoire"),
      lender('ECOBANK', "Ecobank Côte d'Ivoire"),
      lender('NSIA', 'NSIA Banque'),
    ],
  },
  {
    country: 'ZM',
    buy: '23.40',
    sell: '23.90',
    channels: [momo('5', '50000', '2.50'), bank('100', '1000000', '15.00', 7200)],
    networks: [
      wallet('MTN', 'MTN MoMo'),
      wallet('AIRTEL', 'Airtel Money'),
      wallet('ZAMTEL', 'Zamtel Kwacha'),
      lender('ZANACO', 'Zanaco'),
      lender('STANBIC', 'Stanbic Bank Zambia'),
      lender('FNB', 'First National Bank Zambia'),
    ],
  },
  {
    country: 'MW',
    buy: '1735.00',
    sell: '1765.00',
    channels: [momo('100', '3000000', '250'), bank('5000', '20000000', '1500', 14_400)],
    networks: [
      wallet('AIRTEL', 'Airtel Money'),
      wallet('MPAMBA', 'TNM Mpamba'),
      lender('NBM', 'National Bank of Malawi'),
      lender('STANDARDBANK', 'Standard Bank Malawi'),
      lender('NBS', 'NBS Bank'),
    ],
  },
  {
    country: 'BJ',
    buy: '568.00',
    sell: '580.00',
    channels: [momo('100', '1000000', '150')],
    networks: [wallet('MTN', 'MTN MoMo'), wallet('MOOV', 'Moov Money'), wallet('CELTIIS', 'Celtiis Cash')],
  },
  {
    country: 'TG',
    buy: '568.00',
    sell: '580.00',
    channels: [momo('100', '1000000', '150')],
    networks: [wallet('MIXX', 'Mixx by Yas'), wallet('MOOV', 'Moov Money (Flooz)')],
  },
  {
    country: 'BF',
    buy: '568.00',
    sell: '580.00',
    channels: [momo('100', '1000000', '150'), bank('10000', '10000000', '1500', 172_800, { ramps: ['withdraw'] })],
    networks: [wallet('ORANGE', 'Orange Money'), wallet('MOOV', 'Moov Money'), lender('CORIS', 'Coris Bank International')],
  },
  {
    country: 'CD',
    buy: '2850.00',
    sell: '2905.00',
    channels: [momo('500', '5000000', '500'), bank('50000', '50000000', '5000', 172_800, { ramps: ['withdraw'] })],
    networks: [
      wallet('MPESA', 'M-Pesa'),
      wallet('ORANGE', 'Orange Money'),
      wallet('AIRTEL', 'Airtel Money'),
      wallet('AFRIMONEY', 'Afrimoney', { pausedFor: ['deposit'] }),
      lender('RAWBANK', 'Rawbank'),
      lender('EQUITYBCDC', 'Equity BCDC'),
    ],
  },
  {
    country: 'BW',
    buy: '13.55',
    sell: '13.80',
    channels: [momo('10', '20000', '3.00'), bank('100', '500000', '10.00', 14_400)],
    networks: [
      wallet('ORANGE', 'Orange Money'),
      wallet('MYZAKA', 'MyZaka'),
      wallet('SMEGA', 'Smega'),
      lender('FNB', 'First National Bank Botswana'),
      lender('ABSA', 'Absa Bank Botswana'),
      lender('STANBIC', 'Stanbic Bank Botswana'),
    ],
  },
];

/** Rates that are not countries (portal-core §3 drops them from the partner's list): the coins and the dollar. */
const OTHER_RATES = [
  { locale: 'crypto', code: 'USDT', buy: '1.00', sell: '1.00' },
  { locale: 'crypto', code: 'USDC', buy: '1.00', sell: '1.00' },
  { locale: 'US', code: 'USD', buy: '1.00', sell: '1.00' },
];

export const platformRateId = (locale: string, code: string) => nameUuid(`platform-rate:${locale}:${code}`);
/** A partner's row for a platform rate has a fixed id too: the rates module and the demo seed make the same one. */
export const partnerRateId = (partnerId: string, platformRateId: string) => nameUuid(`partner-rate:${partnerId}:${platformRateId}`);

export type PlatformRateRow = { id: string; locale: string; code: string; buy: string; sell: string };
export type ChannelRow = {
  id: string;
  vendor_id: string;
  ramp_type: RampType;
  channel_type: string;
  country: string;
  currency: string;
  status: 'active' | 'inactive';
  commercial_status: 'active' | 'inactive';
  fee_local: string;
  min: string;
  max: string;
  success_threshold: string;
  estimated_settlement_time: number;
  settlement_type: 'instant' | 'manual';
  widget_status: 'active' | 'inactive';
  api_status: 'active' | 'inactive';
  widget_min: string;
  widget_max: string;
};
export type NetworkRow = {
  id: string;
  code: string;
  name: string;
  country: string;
  status: 'active' | 'inactive';
  channel_ids: string[];
  account_number_type: AccountNumberType;
  feature_flag_enabled: boolean;
  temp_disabled_for: RampType[];
};

/** The rows the reference tables are loaded with. */
export function referenceRows(): { platformRates: PlatformRateRow[]; channels: ChannelRow[]; networks: NetworkRow[] } {
  const platformRates: PlatformRateRow[] = [];
  const channels: ChannelRow[] = [];
  const networks: NetworkRow[] = [];
  for (const m of MARKETS) {
    const currency = COUNTRY_CURRENCIES[m.country];
    platformRates.push({ id: platformRateId(m.country, currency), locale: m.country, code: currency, buy: m.buy, sell: m.sell });
    const byType = new Map<string, string[]>();
    for (const c of m.channels) {
      for (const ramp of c.ramps) {
        const id = nameUuid(`channel:${m.country}:${c.type}:${ramp}`);
        if (!c.inactive) byType.set(c.type, [...(byType.get(c.type) ?? []), id]);
        channels.push({
          id,
          vendor_id: `${m.country.toLowerCase()}-${c.type}-${ramp === 'deposit' ? 'in' : 'out'}`,
          ramp_type: ramp,
          channel_type: c.type,
          country: m.country,
          currency,
          status: c.inactive ? 'inactive' : 'active',
          commercial_status: c.inactive ? 'inactive' : 'active',
          fee_local: c.fee,
          min: c.min,
          max: c.max,
          success_threshold: c.type === 'momo' ? '0.85' : '0.90',
          estimated_settlement_time: c.settles,
          settlement_type: c.settlement,
          widget_status: c.inactive ? 'inactive' : 'active',
          api_status: c.inactive ? 'inactive' : 'active',
          widget_min: c.min,
          widget_max: c.widgetMax ?? c.max,
        });
      }
    }
    for (const n of m.networks) {
      networks.push({
        id: nameUuid(`network:${m.country}:${n.code}`),
        code: n.code,
        name: n.name,
        country: m.country,
        status: n.inactive ? 'inactive' : 'active',
        channel_ids: n.via.flatMap((t) => byType.get(t) ?? []),
        account_number_type: n.accountNumberType,
        feature_flag_enabled: false,
        temp_disabled_for: n.pausedFor ?? [],
      });
    }
  }
  for (const r of OTHER_RATES) platformRates.push({ id: platformRateId(r.locale, r.code), ...r });
  return { platformRates, channels, networks };
}
