import { coinNetworkLabel, shortAddress } from '@portal/contract/labels';
import { LOW_BALANCE_APPROACHING_PERCENT, NOTIFICATION_TOPIC_INFO } from '@portal/contract/notifications';
import type { Role } from '@portal/contract/domain';
import { ROLE_LABELS } from '@portal/contract/team';
import { countryNameIn } from '@portal/contract/countries';
import { coinText, moneyText, utcDateTime } from './format.ts';
import type {
  AdminResetMail,
  CountryChange,
  InvitationLinkMail,
  InvitationMail,
  MailText,
  Notice,
  NotificationMail,
  OtpMail,
  Person,
  ResetMail,
  WalletRef,
  WebhookChange,
  WebhookFailing,
} from './types.ts';

/**
 * Every e-mail the server sends and every notification it writes, in English: the language the others follow, key
 * for key (fr.ts; a test holds them to the same templates). Each template takes data and writes its sentences.
 */

const mail = (name: string, subject: string, lines: string[]): MailText => ({ subject, text: [`Hello ${name},`, '', ...lines].join('\n') });
const who = (p: Person) => (p ? `${p.name} (${p.email})` : 'Someone');
const usd = (amount: string) => moneyText(amount, 'USD', 'en');
/** "USDT (TRC20) wallet address TQn9…x7Yb", after "the" */
const walletText = (w: WalletRef) => `${coinNetworkLabel(w.coins, w.network)} wallet address ${shortAddress(w.address)}`;
const pair = (w: WalletRef) => `${coinNetworkLabel(w.coins, w.network)} address ${shortAddress(w.address)}`;
const place = (c: CountryChange) => `${countryNameIn(c.locale, 'en')} (${c.code})`;
const verb = (c: CountryChange) => (c.enable ? 'Enable' : 'Disable');
const IP_TITLE = 'Your allowed IP addresses changed';

/** What a notification says each change of an API key did: its title, and the verb of its sentence. */
const KEY_CHANGES: Record<string, [title: string, verb: string]> = {
  created: ['A new API key was created', 'created the API key'],
  rolled: ['An API key was rolled', 'rolled (gave a new secret to) the API key'],
  enabled: ['An API key was enabled', 'enabled the API key'],
  disabled: ['An API key was disabled', 'disabled the API key'],
  deleted: ['An API key was deleted', 'deleted the API key'],
};

export const en = {
  otp: (m: OtpMail): MailText =>
    mail(m.name, 'Your Partner Dashboard verification code', [
      `Your verification code is ${m.code}. It is valid for ${m.minutes} minutes and can be used once${m.purpose ? `, ${m.purpose}` : ''}.`,
      '',
      'If you did not ask for it, someone may be signed in as you: change your password and tell your administrator.',
    ]),

  /** What an e-mailed code is for, after "can be used once, " */
  otpPurpose: {
    walletAdd: (w: WalletRef) => `to add the ${pair(w)}`,
    walletEnable: (w: WalletRef) => `to enable the ${pair(w)}`,
    walletDelete: (w: WalletRef) => `to delete the ${pair(w)}`,
    ipAdd: (ip: string) => `to allow the IP address ${ip}`,
    /** label: the new label ('' for none), undefined when it stays */
    ipChange: (ip: string, newIp: string, label: string | undefined) =>
      `to change the allowed IP ${ip} to ${newIp}${label !== undefined ? ` (label: ${label || 'none'})` : ''}`,
    ipRelabel: (ip: string, label: string | undefined) => `to change the label of the allowed IP ${ip} to ${label || 'none'}`,
    ipDelete: (ip: string) => `to remove the allowed IP ${ip}`,
    webhookCreate: (url: string) => `to add the webhook endpoint ${url}`,
    webhookUpdate: (url: string) => `to change the webhook endpoint ${url}`,
    webhookDelete: (url: string) => `to delete the webhook endpoint ${url}`,
    webhookRoll: (url: string) => `to roll the signing secret of the webhook endpoint ${url}`,
    countries: (changes: CountryChange[]) => `to ${changes.map((c) => `${verb(c).toLowerCase()} ${place(c)}`).join(', ')}`,
    passkeyAdd: (name: string) => `to add the passkey “${name}” to your account`,
  },

  passwordResetCode: (m: ResetMail): MailText =>
    mail(m.name, 'Your Partner Dashboard password reset code', [
      `Your code to reset your password is ${m.code}. It is valid for ${m.minutes} minutes and can be used once.`,
      `Enter it at ${m.publicUrl}/requested-password-reset.`,
      '',
      'If you did not ask for this, ignore this e-mail: your password stays as it is.',
    ]),

  passwordResetByAdmin: (m: AdminResetMail): MailText =>
    mail(m.name, 'Your Partner Dashboard password was reset', [
      m.first
        ? `${m.admin}, an admin of your team, reset your Partner Dashboard password and signed you out everywhere.`
        : `${m.admin}, an admin of your team, asked us to send you a new code. Earlier codes no longer work.`,
      `Your code to choose a new password is ${m.code}. It is valid for ${m.minutes} minutes and can be used once.`,
      `Enter it at ${m.publicUrl}/requested-password-reset (or sign in at ${m.publicUrl}/login and you will be asked for it).`,
      '',
      'If you did not expect this, contact your administrator.',
    ]),

  invitation: (m: InvitationLinkMail): MailText =>
    mail(m.name, m.again ? `Your new invitation to the ${m.partner} Partner Dashboard` : `You are invited to the ${m.partner} Partner Dashboard`, [
      `You have been invited${m.invitedBy ? ` by ${m.invitedBy}` : ''} to the Partner Dashboard of ${m.partner} as ${ROLE_LABELS[m.role]}.`,
      ...(m.again ? ['This invitation replaces the earlier one: its link no longer works.'] : []),
      'Open this link to choose your password, then set up an authenticator app:',
      '',
      m.link,
      '',
      `The link works once, and until ${utcDateTime(m.expiresAt, 'en')}. After that, ask an admin of ${m.partner} to send a new invitation.`,
    ]),

  /** To the owner of an account elsewhere: no link, since an address belongs to one account. */
  invitationHeldElsewhere: (m: InvitationMail): MailText =>
    mail(m.name, `An invitation to the ${m.partner} Partner Dashboard`, [
      `You were invited${m.invitedBy ? ` by ${m.invitedBy}` : ''} to the Partner Dashboard of ${m.partner} (role: ${ROLE_LABELS[m.role]}).`,
      'This e-mail address already has a Partner Dashboard account, and an address can belong to one account only, so no second account was made.',
      `If you meant to join ${m.partner}, ask them to invite another address. If you do not know this invitation, you can ignore this e-mail.`,
    ]),

  /** A notification by e-mail: its sentences, when (UTC), where to see it, and how to stop such e-mails. */
  notificationMail: (m: NotificationMail): MailText =>
    mail(m.name, m.notice.title, [
      ...m.notice.lines,
      `When: ${utcDateTime(m.at, 'en')}`,
      '',
      `Open it in the portal: ${m.link}`,
      '',
      `You get this e-mail as a user of ${m.partner}. To stop e-mails about ${NOTIFICATION_TOPIC_INFO[m.topic].label.toLowerCase()}, change your notification settings: ${m.settingsUrl}`,
    ]),

  /** The notifications: the bell shows them, and they are e-mailed (notificationMail) to whoever did not turn them off. */
  notices: {
    withdrawalRequested: (d: { requester: Person; amount: string; wallet: WalletRef; coinAmount: string; coin: string }): Notice => ({
      title: `Withdrawal of ${usd(d.amount)} requested`,
      lines: [
        `${who(d.requester)} requested a withdrawal of ${usd(d.amount)} to the ${walletText(d.wallet)} (${coinText(d.coinAmount, d.coin, 'en')} after fees).`,
      ],
    }),
    withdrawalCompleted: (d: { requester: Person; amount: string; wallet: WalletRef; hash: string | null }): Notice => ({
      title: `Withdrawal of ${usd(d.amount)} completed`,
      lines: [
        `The withdrawal of ${usd(d.amount)} to the ${walletText(d.wallet)}, requested by ${who(d.requester)}, is complete.${d.hash ? ` Transaction hash: ${d.hash}.` : ''}`,
      ],
    }),
    withdrawalFailed: (d: { requester: Person; amount: string; wallet: WalletRef; reason: string | undefined }): Notice => ({
      title: `Withdrawal of ${usd(d.amount)} failed`,
      lines: [
        `The withdrawal of ${usd(d.amount)} to the ${walletText(d.wallet)}, requested by ${who(d.requester)}, failed${d.reason ? `: ${d.reason}` : ''}.`,
        `Nothing was sent; ${usd(d.amount)} is back in your balance.`,
      ],
    }),

    lowBalanceBelow: (d: { partner: string; balance: string; limit: string }): Notice => ({
      title: `Your balance is below your low balance limit (${usd(d.limit)})`,
      lines: [`${d.partner}'s balance is ${usd(d.balance)}, below the low balance limit of ${usd(d.limit)}. Top up to keep paying out.`],
    }),
    lowBalanceRecovered: (d: { partner: string; balance: string; limit: string }): Notice => ({
      title: 'Your balance is above your low balance limit again',
      lines: [`${d.partner}'s balance is ${usd(d.balance)}, above the low balance limit of ${usd(d.limit)} again.`],
    }),
    lowBalanceApproaching: (d: { partner: string; balance: string; limit: string }): Notice => ({
      title: `Your balance is nearing your low balance limit (${usd(d.limit)})`,
      lines: [`${d.partner}'s balance is ${usd(d.balance)}, within ${LOW_BALANCE_APPROACHING_PERCENT}% of the low balance limit of ${usd(d.limit)}.`],
    }),

    roleChanged: (d: { actor: Person; partner: string; from: Role; to: Role }): Notice => ({
      title: `Your role is now ${ROLE_LABELS[d.to]}`,
      lines: [
        `${who(d.actor)} changed your role in the Partner Dashboard of ${d.partner} from ${ROLE_LABELS[d.from]} to ${ROLE_LABELS[d.to]}. What you can see and do changed with it.`,
      ],
    }),

    walletAdded: (d: { actor: Person; wallet: WalletRef }): Notice => ({
      title: 'A new wallet address is waiting for your review',
      lines: [`${who(d.actor)} added the ${walletText(d.wallet)}. It needs another admin or treasury user to approve it before withdrawals can go to it.`],
    }),
    walletApproved: (d: { actor: Person; wallet: WalletRef }): Notice => ({
      title: 'Your new wallet address was approved',
      lines: [`${who(d.actor)} approved the ${walletText(d.wallet)} you added. It is being screened, and is enabled once it passes.`],
    }),
    walletDenied: (d: { actor: Person; wallet: WalletRef; reason: string }): Notice => ({
      title: 'Your new wallet address was denied',
      lines: [`${who(d.actor)} denied the ${walletText(d.wallet)} you added.`, `Reason: ${d.reason}`],
    }),
    walletEnabled: (d: { wallet: WalletRef }): Notice => ({
      title: 'Your new wallet address is enabled',
      lines: [`The ${walletText(d.wallet)} passed screening and is enabled: withdrawals can now be sent to it.`],
    }),
    walletScreeningFailed: (d: { wallet: WalletRef; reason: string }): Notice => ({
      title: 'Your new wallet address did not pass screening',
      lines: [`The ${walletText(d.wallet)} did not pass screening and was not enabled.`, `Reason: ${d.reason}`],
    }),

    countryChangeRequested: (d: { actor: Person; partner: string; changes: CountryChange[] }): Notice => ({
      title: 'A country change is waiting for your approval',
      lines: [
        `${who(d.actor)} asked to change the countries ${d.partner} serves: ${d.changes.map((c) => `${verb(c)} ${place(c)}`).join('; ')}.`,
        'The change takes effect once another admin approves it.',
      ],
    }),
    countryChangeReviewed: (d: { actor: Person; decisions: (CountryChange & { approved: boolean })[] }): Notice => ({
      title: 'Your country change was reviewed',
      lines: [`${who(d.actor)} ${d.decisions.map((c) => `${c.approved ? 'approved' : 'denied'} the change to ${verb(c)} ${place(c)}`).join('; ')}.`],
    }),

    ipAdded: (d: { actor: Person; ip: string }): Notice => ({ title: IP_TITLE, lines: [`${who(d.actor)} added ${d.ip} to the allowed IP addresses.`] }),
    ipRemoved: (d: { actor: Person; ip: string }): Notice => ({ title: IP_TITLE, lines: [`${who(d.actor)} removed ${d.ip} from the allowed IP addresses.`] }),
    ipReplaced: (d: { actor: Person; ip: string; newIp: string }): Notice => ({
      title: IP_TITLE,
      lines: [`${who(d.actor)} replaced the allowed IP address ${d.ip} with ${d.newIp}.`],
    }),
    ipRelabelled: (d: { actor: Person; ip: string }): Notice => ({
      title: IP_TITLE,
      lines: [`${who(d.actor)} changed the label of the allowed IP address ${d.ip}.`],
    }),

    /** change: created, rolled, enabled, disabled or deleted */
    apiKeyChanged: (d: { actor: Person; change: string; name: string; apiKey: string }): Notice => {
      const [title, did] = KEY_CHANGES[d.change] ?? ['An API key was changed', 'changed the API key'];
      return { title, lines: [`${who(d.actor)} ${did} "${d.name}" (${d.apiKey}).`] };
    },

    webhookAdded: (d: { actor: Person; url: string; eventTypes: number }): Notice => ({
      title: 'A webhook endpoint was added',
      lines: [`${who(d.actor)} added the webhook endpoint ${d.url} (${d.eventTypes} event types).`],
    }),
    webhookChanged: (d: { actor: Person; change: WebhookChange }): Notice => {
      const c = d.change;
      const what = [
        c.newUrl !== undefined ? `its address from ${c.url} to ${c.newUrl}` : undefined,
        c.events ? 'its event types' : undefined,
        c.description ? 'its description' : undefined,
        c.active !== undefined ? (c.active ? 'turned it on' : 'turned it off') : undefined,
      ].filter((w) => w !== undefined);
      return { title: 'A webhook endpoint was changed', lines: [`${who(d.actor)} changed the webhook endpoint ${c.url}: ${what.join(', ')}.`] };
    },
    webhookSecretRolled: (d: { actor: Person; url: string; until: Date | null }): Notice => ({
      title: 'A webhook secret was rolled',
      lines: [
        `${who(d.actor)} rolled the signing secret of the webhook endpoint ${d.url}: ${
          d.until ? `the old secret keeps signing until ${d.until.toISOString().slice(0, 16).replace('T', ' ')} UTC` : 'the old secret stopped at once'
        }.`,
      ],
    }),
    webhookFailing: (d: WebhookFailing): Notice => ({
      title: 'A webhook endpoint is failing',
      lines: [
        `We could not deliver a ${d.type} event (${d.messageId}) to your webhook endpoint ${d.url}.`,
        d.retryable
          ? `We tried ${d.attempts} times over the retry schedule; the last attempt: ${d.last}.`
          : `The receiver refused it: ${d.last}. We do not retry this answer.`,
        'The endpoint is marked failing. New events are still sent to it, and it is healthy again after its next successful delivery.',
        'See each attempt, and resend the event once the receiver is fixed, in Developers tools > Webhooks.',
      ],
    }),
    webhookDeleted: (d: { actor: Person; url: string }): Notice => ({
      title: 'A webhook endpoint was deleted',
      lines: [`${who(d.actor)} deleted the webhook endpoint ${d.url}.`],
    }),
  },
};

export type MailTexts = typeof en;
