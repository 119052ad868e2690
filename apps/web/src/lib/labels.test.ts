import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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

  describe("in French, whatever the value's case or separators; an unknown value keeps the contract's word", () => {
    beforeEach(() => setLanguage('fr'));

    const LABELS: Record<'status' | 'role' | 'topic' | 'transactionType' | 'paymentMethod' | 'requestSource', (value: string | null | undefined) => string> = {
      status: statusLabel,
      role: (value) => roleLabel(value as Role),
      topic: (value) => topicLabel(value as NotificationTopic),
      transactionType: transactionTypeLabel,
      paymentMethod: paymentMethodLabel,
      requestSource: requestSourceLabel,
    };
    it.each<[kind: keyof typeof LABELS, value: string | null | undefined, french: string]>([
      ['status', 'pending_approval', 'En attente d’approbation'],
      ['status', 'PENDING-KYC', 'En attente KYC'],
      ['status', 'complete', 'Terminé'],
      ['status', 'settlement_failed', 'Échec du règlement'],
      ['status', 'data_downloaded', 'Données récupérées'],
      ['status', 'on_hold', 'On Hold'],
      ['status', undefined, ''],
      ['role', 'view', 'Lecture seule'],
      ['topic', 'low-balance', 'Solde bas'],
      ['transactionType', 'payout', 'Décaissement'],
      ['transactionType', 'TOPUP', 'Recharge'],
      ['paymentMethod', 'BANK_TRANSFER', 'Banque'],
      ['paymentMethod', 'momo', 'Mobile Money'],
      ['paymentMethod', 'eft', 'Virement bancaire'],
      ['paymentMethod', 'highvolumeotc', 'Highvolumeotc'],
      ['requestSource', null, 'API'],
      ['requestSource', 'portal', 'Portail'],
    ])('the %s word of %j is %j', (kind, value, french) => {
      expect(LABELS[kind](value)).toBe(french);
    });
  });
});
