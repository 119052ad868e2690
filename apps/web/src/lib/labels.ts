import * as contract from '@portal/contract/labels';
import type { Role } from '@portal/contract/domain';
import type { NotificationTopic } from '@portal/contract/notifications';
import en from '../locales/en/labels.json';
import { currentLanguage, defineMessages, translator, type MessageKey } from './i18n.ts';

/**
 * The words of stored values (statuses, transaction types, payment methods, channel types, request sources) in the
 * language in force. The contract's English words stay those of the files the server writes (exports keep their
 * machine form); the screens read these, which give the same English and translate the values the portal knows. A
 * value it does not know keeps the contract's English word.
 */
export const labelsMessages = defineMessages('labels', en);
type Key = MessageKey<typeof en>;

/** The translated word of `value` under one of the prefixes (tried in order), else the contract's English one. */
function word(prefixes: readonly string[], value: string | null | undefined, english: (value: string | null | undefined) => string): string {
  if (currentLanguage() === 'en' || !value) return english(value);
  // the contract reads pending-approval, PENDING_APPROVAL and pending approval alike
  const normal = value
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '_');
  const key = prefixes.map((p) => `${p}.${normal}`).find((k) => k in labelsMessages.en);
  return key ? translator(labelsMessages)(key as Key) : english(value);
}

/** A transaction, settlement, trade or report status as the tables show it: Pending KYC, En attente KYC. */
export const statusLabel = (value: string | null | undefined): string => word(['status'], value, contract.statusLabel);

/** Payment methods and channel types: BANK_TRANSFER → Bank (Banque), momo → Mobile Money. */
export const paymentMethodLabel = (value: string | null | undefined): string => word(['paymentMethod', 'channel'], value, contract.paymentMethodLabel);

/** payout → Pay out (Décaissement), topup → Top up (Recharge). */
export const transactionTypeLabel = (value: string | null | undefined): string => word(['transactionType'], value, contract.transactionTypeLabel);

/** A missing request source shows as API, as does any value reading api. */
export const requestSourceLabel = (value: string | null | undefined): string =>
  !value || value.trim().toLowerCase() === 'api' ? contract.requestSourceLabel(value) : word(['requestSource'], value, contract.requestSourceLabel);

/** A notification topic as people read it: Withdrawals, Wallet addresses (Retraits, Adresses de portefeuille). */
export const topicLabel = (topic: NotificationTopic): string => translator(labelsMessages)(`topic.${topic}`);

/** A role as people read it: Admin, Treasury, View only (Administrateur, Trésorerie, Lecture seule). */
export const roleLabel = (role: Role): string => translator(labelsMessages)(`role.${role}`);

export { titleCase } from '@portal/contract/labels';
