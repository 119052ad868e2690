import { afterEach, describe, expect, it } from 'vitest';
import * as contract from '@portal/contract/labels';
import { ROLE_LABELS } from '@portal/contract/team';
import type { Role } from '@portal/contract/domain';
import { NOTIFICATION_TOPIC_INFO, type NotificationTopic } from '@portal/contract/notifications';
import en from '../locales/en/labels.json';
import { setLanguage } from './i18n.ts';
import { paymentMethodLabel, requestSourceLabel, roleLabel, statusLabel, topicLabel, transactionTypeLabel } from './labels.ts';

const KINDS = {
  status: [statusLabel, contract.statusLabel],
  transactionType: [transactionTypeLabel, contract.transactionTypeLabel],
  paymentMethod: [paymentMethodLabel, contract.paymentMethodLabel],
  channel: [paymentMethodLabel, contract.paymentMethodLabel],
  requestSource: [requestSourceLabel, contract.requestSourceLabel],
  role: [(v: string) => roleLabel(v as Role), (v: string) => ROLE_LABELS[v as Role]],
  topic: [(v: string) => topicLabel(v as NotificationTopic), (v: string) => NOTIFICATION_TOPIC_INFO[v as NotificationTopic].label],
} as const;

describe('the words of stored values', () => {
  afterEach(() => setLanguage('en'));

  it("are the contract's in English (a screen says what the server's files say), for every value the catalogue knows", () => {
    for (const [key, text] of Object.entries(en)) {
      const [kind, value] = key.split(/\.(.*)/) as [keyof typeof KINDS, string];
      const [portal, english] = KINDS[kind];
      expect(portal(value), key).toBe(english(value));
      expect(text, key).toBe(english(value));
    }
  });

  it("are French in French, whatever the value's case or separators; an unknown value keeps the contract's word", async () => {
    await setLanguage('fr');
    expect(statusLabel('pending_approval')).toBe('En attente d’approbation');
    expect(statusLabel('PENDING-KYC')).toBe('En attente KYC');
    expect(statusLabel('complete')).toBe('Terminé');
    expect(statusLabel('settlement_failed')).toBe('Échec du règlement');
    expect(statusLabel('data_downloaded')).toBe('Données récupérées');
    expect(statusLabel('on_hold')).toBe('On Hold');
    expect(statusLabel(undefined)).toBe('');
    expect(roleLabel('view')).toBe('Lecture seule');
    expect(topicLabel('low-balance')).toBe('Solde bas');
    expect(transactionTypeLabel('payout')).toBe('Décaissement');
    expect(transactionTypeLabel('TOPUP')).toBe('Recharge');
    expect(paymentMethodLabel('BANK_TRANSFER')).toBe('Banque');
    expect(paymentMethodLabel('momo')).toBe('Mobile Money');
    expect(paymentMethodLabel('eft')).toBe('Virement bancaire');
    expect(paymentMethodLabel('highvolumeotc')).toBe('Highvolumeotc');
    expect(requestSourceLabel(null)).toBe('API');
    expect(requestSourceLabel('portal')).toBe('Portail');
  });
});
