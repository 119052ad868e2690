import en from '../../locales/en/payments.json';
import { defineMessages } from '../../lib/i18n.ts';

/** The texts of initiating a payment: the form, its quote and the payment made. */
export const paymentsMessages = defineMessages('payments', en);
