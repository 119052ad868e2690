import type { Role } from '@portal/contract/domain';
import type { NotificationTopic } from '@portal/contract/notifications';

/** What the templates are given: data, never sentences, so that each language says it its own way. */

/** A member as a notification names them: "Ann Admin (ann@acme.test)"; undefined: a user no longer there. */
export type Person = { name: string; email: string } | undefined;
/** A wallet address: its coins ("USDT/USDC"), its network and the address (shortened where it is written). */
export type WalletRef = { coins: string; network: string; address: string };
/** A country a partner asks to enable or disable: its ISO code and its currency. */
export type CountryChange = { enable: boolean; locale: string; code: string };
/** A notification's words: its title (the bell's and the e-mail's subject) and a sentence or two. */
export type Notice = { title: string; lines: string[] };
/** An e-mail's words. */
export type MailText = { subject: string; text: string };

export type OtpMail = { name: string; code: string; minutes: number; purpose: string | undefined };
export type ResetMail = { name: string; code: string; minutes: number; publicUrl: string };
export type AdminResetMail = ResetMail & { admin: string; first: boolean };
export type InvitationMail = { name: string; partner: string; invitedBy: string | undefined; role: Role };
export type InvitationLinkMail = InvitationMail & { again: boolean; link: string; expiresAt: Date };
export type NotificationMail = { name: string; notice: Notice; at: Date; link: string; partner: string; topic: NotificationTopic; settingsUrl: string };
/** A webhook endpoint that failed a delivery for good: the event, and why (`last`: the last answer or error). */
export type WebhookFailing = {
  type: string;
  messageId: string;
  url: string;
  retryable: boolean;
  attempts: number;
  last: string;
};
export type WebhookChange = { url: string; newUrl: string | undefined; events: boolean; description: boolean; active: boolean | undefined };
