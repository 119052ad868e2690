import type { Role } from '@portal/contract/domain';
import { coinNetworkLabel, shortAddress } from '@portal/contract/labels';
import { LOW_BALANCE_APPROACHING_PERCENT, type NotificationTopic } from '@portal/contract/notifications';
import type { MailTexts } from './en.ts';
import { countryNameIn } from '@portal/contract/countries';
import { coinText, moneyText, utcDateTime } from './format.ts';
import type { CountryChange, MailText, Notice, Person, WalletRef } from './types.ts';

/**
 * Every e-mail the server sends and every notification it writes, in French (formal "vous"), template for template
 * as en.ts. French typesetting: a no-break space (\u00a0) before a colon, a narrow one (\u202f) before a semicolon.
 */

const PRODUCT = 'tableau de bord partenaire';
const mail = (name: string, subject: string, lines: string[]): MailText => ({ subject, text: [`Bonjour ${name},`, '', ...lines].join('\n') });
const who = (p: Person) => (p ? `${p.name} (${p.email})` : 'Quelqu’un');
/** "de Kora", "d’Acme": a name after "de" */
const of = (name: string) => (/^[aeiouyàâäéèêëîïôöûü]/i.test(name) ? `d’${name}` : `de ${name}`);
const usd = (amount: string) => moneyText(amount, 'USD', 'fr');
/** "l’adresse de portefeuille USDT (TRC20) TQn9…x7Yb" */
const walletText = (w: WalletRef) => `l’adresse de portefeuille ${coinNetworkLabel(w.coins, w.network)} ${shortAddress(w.address)}`;
const pair = (w: WalletRef) => `l’adresse ${coinNetworkLabel(w.coins, w.network)} ${shortAddress(w.address)}`;
const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const place = (c: CountryChange) => `${countryNameIn(c.locale, 'fr')} (${c.code})`;
const change = (c: CountryChange) => `${c.enable ? 'Activer' : 'Désactiver'} ${place(c)}`;
const quoted = (text: string) => `«\u00a0${text}\u00a0»`;
const IP_TITLE = 'Vos adresses IP autorisées ont changé';

const ROLES: Record<Role, string> = { admin: 'Administrateur', treasury: 'Trésorerie', view: 'Lecture seule' };
/** The topics as "to stop e-mails about …" names them. */
const TOPICS: Record<NotificationTopic, string> = {
  withdrawals: 'les retraits',
  wallets: 'les adresses de portefeuille',
  countries: 'les pays',
  'low-balance': 'le solde bas',
  developers: 'les clés API, les adresses IP autorisées et les webhooks',
  account: 'votre compte',
};
const KEY_CHANGES: Record<string, [title: string, verb: string]> = {
  created: ['Une nouvelle clé API a été créée', 'a créé la clé API'],
  rolled: ['Une clé API a été renouvelée', 'a renouvelé (doté d’un nouveau secret) la clé API'],
  enabled: ['Une clé API a été activée', 'a activé la clé API'],
  disabled: ['Une clé API a été désactivée', 'a désactivé la clé API'],
  deleted: ['Une clé API a été supprimée', 'a supprimé la clé API'],
};

export const fr: MailTexts = {
  otp: (m) =>
    mail(m.name, `Votre code de vérification du ${PRODUCT}`, [
      `Votre code de vérification est ${m.code}. Il est valable ${m.minutes} minutes et ne peut servir qu’une fois${m.purpose ? `, ${m.purpose}` : ''}.`,
      '',
      'Si vous ne l’avez pas demandé, quelqu’un utilise peut-être votre compte\u00a0: changez votre mot de passe et prévenez votre administrateur.',
    ]),

  otpPurpose: {
    walletAdd: (w) => `pour ajouter ${pair(w)}`,
    walletEnable: (w) => `pour activer ${pair(w)}`,
    walletDelete: (w) => `pour supprimer ${pair(w)}`,
    ipAdd: (ip) => `pour autoriser l’adresse IP ${ip}`,
    ipChange: (ip, newIp, label) =>
      `pour remplacer l’adresse IP autorisée ${ip} par ${newIp}${label !== undefined ? ` (libellé\u00a0: ${label ? quoted(label) : 'aucun'})` : ''}`,
    ipRelabel: (ip, label) => `pour modifier le libellé de l’adresse IP autorisée ${ip} (nouveau libellé\u00a0: ${label ? quoted(label) : 'aucun'})`,
    ipDelete: (ip) => `pour retirer l’adresse IP autorisée ${ip}`,
    webhookCreate: (url) => `pour ajouter le point de terminaison webhook ${url}`,
    webhookUpdate: (url) => `pour modifier le point de terminaison webhook ${url}`,
    webhookDelete: (url) => `pour supprimer le point de terminaison webhook ${url}`,
    webhookRoll: (url) => `pour renouveler le secret de signature du point de terminaison webhook ${url}`,
    countries: (changes) => `pour modifier les pays suivants\u00a0: ${changes.map(change).join(', ')}`,
    passkeyAdd: (name) => `pour ajouter la clé d’accès ${quoted(name)} à votre compte`,
  },

  passwordResetCode: (m) =>
    mail(m.name, `Votre code de réinitialisation du mot de passe du ${PRODUCT}`, [
      `Votre code pour réinitialiser votre mot de passe est ${m.code}. Il est valable ${m.minutes} minutes et ne peut servir qu’une fois.`,
      `Saisissez-le sur ${m.publicUrl}/requested-password-reset.`,
      '',
      'Si vous n’êtes pas à l’origine de cette demande, ignorez cet e-mail\u00a0: votre mot de passe reste inchangé.',
    ]),

  passwordResetByAdmin: (m) =>
    mail(m.name, `Votre mot de passe du ${PRODUCT} a été réinitialisé`, [
      m.first
        ? `${m.admin}, administrateur de votre équipe, a réinitialisé votre mot de passe du ${PRODUCT} et fermé toutes vos sessions.`
        : `${m.admin}, administrateur de votre équipe, nous a demandé de vous envoyer un nouveau code. Les codes précédents ne fonctionnent plus.`,
      `Votre code pour choisir un nouveau mot de passe est ${m.code}. Il est valable ${m.minutes} minutes et ne peut servir qu’une fois.`,
      `Saisissez-le sur ${m.publicUrl}/requested-password-reset (ou connectez-vous sur ${m.publicUrl}/login, il vous sera alors demandé).`,
      '',
      'Si vous ne vous y attendiez pas, contactez votre administrateur.',
    ]),

  invitation: (m) =>
    mail(m.name, m.again ? `Votre nouvelle invitation au ${PRODUCT} ${of(m.partner)}` : `Invitation au ${PRODUCT} ${of(m.partner)}`, [
      `Vous êtes invité${m.invitedBy ? ` par ${m.invitedBy}` : ''} à rejoindre le ${PRODUCT} ${of(m.partner)} avec le rôle ${ROLES[m.role]}.`,
      ...(m.again ? ['Cette invitation remplace la précédente\u00a0: son lien ne fonctionne plus.'] : []),
      'Ouvrez ce lien pour choisir votre mot de passe, puis configurez une application d’authentification\u00a0:',
      '',
      m.link,
      '',
      `Le lien ne sert qu’une fois, jusqu’au ${utcDateTime(m.expiresAt, 'fr')}. Passé ce délai, demandez à un administrateur ${of(m.partner)} de vous envoyer une nouvelle invitation.`,
    ]),

  invitationHeldElsewhere: (m) =>
    mail(m.name, `Une invitation au ${PRODUCT} ${of(m.partner)}`, [
      `Vous avez été invité${m.invitedBy ? ` par ${m.invitedBy}` : ''} à rejoindre le ${PRODUCT} ${of(m.partner)} (rôle\u00a0: ${ROLES[m.role]}).`,
      `Cette adresse e-mail a déjà un compte sur le ${PRODUCT}, et une adresse ne peut appartenir qu’à un seul compte\u00a0: aucun second compte n’a été créé.`,
      `Si vous souhaitiez rejoindre ${m.partner}, demandez-lui d’inviter une autre adresse. Si cette invitation ne vous dit rien, vous pouvez ignorer cet e-mail.`,
    ]),

  notificationMail: (m) =>
    mail(m.name, m.notice.title, [
      ...m.notice.lines,
      `Date\u00a0: ${utcDateTime(m.at, 'fr')}`,
      '',
      `Pour le voir dans le portail\u00a0: ${m.link}`,
      '',
      `Vous recevez cet e-mail en tant qu’utilisateur ${of(m.partner)}. Pour ne plus recevoir d’e-mails sur ${TOPICS[m.topic]}, modifiez vos paramètres de notification\u00a0: ${m.settingsUrl}`,
    ]),

  notices: {
    withdrawalRequested: (d): Notice => ({
      title: `Retrait de ${usd(d.amount)} demandé`,
      lines: [
        `${who(d.requester)} a demandé un retrait de ${usd(d.amount)} vers ${walletText(d.wallet)} (${coinText(d.coinAmount, d.coin, 'fr')} après frais).`,
      ],
    }),
    withdrawalCompleted: (d): Notice => ({
      title: `Retrait de ${usd(d.amount)} terminé`,
      lines: [
        `Le retrait de ${usd(d.amount)} vers ${walletText(d.wallet)}, demandé par ${who(d.requester)}, est terminé.${d.hash ? ` Hash de la transaction\u00a0: ${d.hash}.` : ''}`,
      ],
    }),
    withdrawalFailed: (d): Notice => ({
      title: `Échec du retrait de ${usd(d.amount)}`,
      lines: [
        `Le retrait de ${usd(d.amount)} vers ${walletText(d.wallet)}, demandé par ${who(d.requester)}, a échoué${d.reason ? `\u00a0: ${d.reason}` : ''}.`,
        `Rien n’a été envoyé\u202f; ${usd(d.amount)} ont été remis sur votre solde.`,
      ],
    }),

    lowBalanceBelow: (d): Notice => ({
      title: `Votre solde est passé sous votre seuil de solde bas (${usd(d.limit)})`,
      lines: [
        `Le solde ${of(d.partner)} est de ${usd(d.balance)}, sous le seuil de solde bas de ${usd(d.limit)}. Rechargez-le pour continuer vos décaissements.`,
      ],
    }),
    lowBalanceRecovered: (d): Notice => ({
      title: 'Votre solde est de nouveau au-dessus de votre seuil de solde bas',
      lines: [`Le solde ${of(d.partner)} est de ${usd(d.balance)}, de nouveau au-dessus du seuil de solde bas de ${usd(d.limit)}.`],
    }),
    lowBalanceApproaching: (d): Notice => ({
      title: `Votre solde approche de votre seuil de solde bas (${usd(d.limit)})`,
      lines: [
        `Le solde ${of(d.partner)} est de ${usd(d.balance)}, à moins de ${LOW_BALANCE_APPROACHING_PERCENT}\u00a0% au-dessus du seuil de solde bas de ${usd(d.limit)}.`,
      ],
    }),

    roleChanged: (d): Notice => ({
      title: `Votre rôle est désormais ${ROLES[d.to]}`,
      lines: [
        `${who(d.actor)} a changé votre rôle dans le ${PRODUCT} ${of(d.partner)} de ${ROLES[d.from]} à ${ROLES[d.to]}. Ce que vous pouvez voir et faire a changé avec lui.`,
      ],
    }),

    walletAdded: (d): Notice => ({
      title: 'Une nouvelle adresse de portefeuille attend votre examen',
      lines: [
        `${who(d.actor)} a ajouté ${walletText(d.wallet)}. Un autre utilisateur (administrateur ou trésorerie) doit l’approuver avant que des retraits puissent y être envoyés.`,
      ],
    }),
    walletApproved: (d): Notice => ({
      title: 'Votre nouvelle adresse de portefeuille a été approuvée',
      lines: [
        `${who(d.actor)} a approuvé ${walletText(d.wallet)} que vous avez ajoutée. Elle fait l’objet d’un contrôle de conformité et sera activée dès qu’il sera concluant.`,
      ],
    }),
    walletDenied: (d): Notice => ({
      title: 'Votre nouvelle adresse de portefeuille a été refusée',
      lines: [`${who(d.actor)} a refusé ${walletText(d.wallet)} que vous avez ajoutée.`, `Motif\u00a0: ${d.reason}`],
    }),
    walletEnabled: (d): Notice => ({
      title: 'Votre nouvelle adresse de portefeuille est activée',
      lines: [`${capital(walletText(d.wallet))} a passé le contrôle de conformité et est activée\u00a0: des retraits peuvent désormais y être envoyés.`],
    }),
    walletScreeningFailed: (d): Notice => ({
      title: 'Votre nouvelle adresse de portefeuille n’a pas passé le contrôle de conformité',
      lines: [`${capital(walletText(d.wallet))} n’a pas passé le contrôle de conformité et n’a pas été activée.`, `Motif\u00a0: ${d.reason}`],
    }),

    countryChangeRequested: (d): Notice => ({
      title: 'Une modification de pays attend votre approbation',
      lines: [
        `${who(d.actor)} a demandé à modifier les pays desservis par ${d.partner}\u00a0: ${d.changes.map(change).join('\u202f; ')}.`,
        'La modification prend effet dès qu’un autre administrateur l’approuve.',
      ],
    }),
    countryChangeReviewed: (d): Notice => ({
      title: 'Votre modification de pays a été examinée',
      lines: [`${who(d.actor)} a ${d.decisions.map((c) => `${c.approved ? 'approuvé' : 'refusé'} la modification ${quoted(change(c))}`).join('\u202f; ')}.`],
    }),

    ipAdded: (d): Notice => ({ title: IP_TITLE, lines: [`${who(d.actor)} a ajouté ${d.ip} aux adresses IP autorisées.`] }),
    ipRemoved: (d): Notice => ({ title: IP_TITLE, lines: [`${who(d.actor)} a retiré ${d.ip} des adresses IP autorisées.`] }),
    ipReplaced: (d): Notice => ({ title: IP_TITLE, lines: [`${who(d.actor)} a remplacé l’adresse IP autorisée ${d.ip} par ${d.newIp}.`] }),
    ipRelabelled: (d): Notice => ({ title: IP_TITLE, lines: [`${who(d.actor)} a modifié le libellé de l’adresse IP autorisée ${d.ip}.`] }),

    apiKeyChanged: (d): Notice => {
      const [title, did] = KEY_CHANGES[d.change] ?? ['Une clé API a été modifiée', 'a modifié la clé API'];
      return { title, lines: [`${who(d.actor)} ${did} ${quoted(d.name)} (${d.apiKey}).`] };
    },

    webhookAdded: (d): Notice => ({
      title: 'Un point de terminaison webhook a été ajouté',
      lines: [
        `${who(d.actor)} a ajouté le point de terminaison webhook ${d.url} (${d.eventTypes} ${d.eventTypes > 1 ? 'types d’événements' : 'type d’événement'}).`,
      ],
    }),
    webhookChanged: (d): Notice => {
      const c = d.change;
      const what = [
        c.newUrl !== undefined ? `son adresse, de ${c.url} à ${c.newUrl}` : undefined,
        c.events ? 'ses types d’événements' : undefined,
        c.description ? 'sa description' : undefined,
        c.active !== undefined ? (c.active ? 'il est désormais activé' : 'il est désormais désactivé') : undefined,
      ].filter((w) => w !== undefined);
      return {
        title: 'Un point de terminaison webhook a été modifié',
        lines: [`${who(d.actor)} a modifié le point de terminaison webhook ${c.url}\u00a0: ${what.join(', ')}.`],
      };
    },
    webhookSecretRolled: (d): Notice => ({
      title: 'Un secret de webhook a été renouvelé',
      lines: [
        `${who(d.actor)} a renouvelé le secret de signature du point de terminaison webhook ${d.url}\u00a0: ${
          d.until ? `l’ancien secret continue de signer jusqu’au ${utcDateTime(d.until, 'fr')}` : 'l’ancien secret a cessé de signer immédiatement'
        }.`,
      ],
    }),
    webhookFailing: (d): Notice => ({
      title: 'Un point de terminaison webhook est en échec',
      lines: [
        `Nous n’avons pas pu livrer un événement ${d.type} (${d.messageId}) à votre point de terminaison webhook ${d.url}.`,
        d.retryable
          ? `Nous avons fait ${d.attempts} tentatives selon le calendrier de relance\u202f; dernière tentative\u00a0: ${d.last}.`
          : `Le destinataire l’a refusé\u00a0: ${d.last}. Nous ne relançons pas après cette réponse.`,
        'Le point de terminaison est marqué en échec. Les nouveaux événements lui sont toujours envoyés, et il redevient opérationnel après sa prochaine livraison réussie.',
        'Consultez chaque tentative, et renvoyez l’événement une fois le destinataire corrigé, dans Outils développeurs > Webhooks.',
      ],
    }),
    webhookDeleted: (d): Notice => ({
      title: 'Un point de terminaison webhook a été supprimé',
      lines: [`${who(d.actor)} a supprimé le point de terminaison webhook ${d.url}.`],
    }),
  },
};
