import { COUNTRY_CURRENCIES, countryName, type Country } from './countries.ts';
import type { MessageCatalogue } from './i18n.ts';

/**
 * The contract's messages in French: each English message (as the server and the forms' checks write it) to its
 * translation. A message built with values is a template: `{{name}}` stands for any text and is carried over
 * (translateMessage in i18n.ts). The server answers in French when the request asks for it (Accept-Language);
 * the portal translates its own checks' messages with the same catalogue.
 *
 * A text is looked up as it is first; templates are then tried in the order they are written here, so a template
 * comes before any shorter one that would also match its messages (a test holds every template reachable). Where a
 * message names one of a few known values (a role, a country, a wallet status, a month), each value gets its own
 * entry, so that the value is translated too; the template after them catches any other.
 */

type Entries = Record<string, string>;
/** Entries made from pairs of [English, French]. */
const entries = (pairs: readonly (readonly string[])[]): Entries => Object.fromEntries(pairs) as Entries;

// ── sign-in, passwords and sessions (auth.ts, live.ts) ──

const AUTH: Entries = {
  'Incorrect email or password.': 'Adresse e-mail ou mot de passe incorrect.',
  'Too many failed sign-in attempts. Your account is locked for 15 minutes.':
    'Trop de tentatives de connexion échouées. Votre compte est verrouillé pendant 15 minutes.',
  "You don't have access to this dashboard currently. Contact your administrator if this is an error.":
    'Vous n’avez pas accès à ce tableau de bord pour le moment. Contactez votre administrateur s’il s’agit d’une erreur.',
  'The code you entered is incorrect. Try again.': 'Le code saisi est incorrect. Réessayez.',
  'You signed in with your last recovery code: none are left.': 'Connexion effectuée avec votre dernier code de récupération : il ne vous en reste plus aucun.',
  'You signed in with a recovery code: 1 recovery code left.': 'Connexion effectuée avec un code de récupération : il vous reste 1 code de récupération.',
  'You signed in with a recovery code: {{left}} recovery codes left.':
    'Connexion effectuée avec un code de récupération : il vous reste {{left}} codes de récupération.',
  'Too many invalid codes. Sign in again.': 'Trop de codes non valides. Reconnectez-vous.',
  'Your sign-in session has expired. Sign in again.': 'Votre session de connexion a expiré. Reconnectez-vous.',
  'The code is wrong or has expired.': 'Le code est erroné ou a expiré.',
  'Too many wrong codes. Ask for a new code.': 'Trop de codes erronés. Demandez un nouveau code.',
  'Choose a password you have not used before: it must differ from your last 5 passwords.':
    'Choisissez un mot de passe que vous n’avez jamais utilisé : il doit être différent de vos 5 derniers mots de passe.',
  'Too many sign-in attempts from your network. Wait a minute and try again.':
    'Trop de tentatives de connexion depuis votre réseau. Patientez une minute, puis réessayez.',
  'Your session is not valid. Sign in again.': 'Votre session n’est pas valide. Reconnectez-vous.',
  'Your session has expired.': 'Votre session a expiré.',
  'Your session has ended. Sign in again.': 'Votre session a pris fin. Reconnectez-vous.',
  'The request-forgery token is missing or does not match. Reload the page and try again.':
    'Le jeton de protection contre la falsification de requêtes est absent ou ne correspond pas. Rechargez la page, puis réessayez.',
  'If an account exists for this e-mail, a six-digit code is on its way. It is valid for 15 minutes.':
    'Si un compte existe pour cette adresse e-mail, un code à six chiffres vous a été envoyé. Il est valable 15 minutes.',
  'Enter a valid e-mail address': 'Saisissez une adresse e-mail valide',
  'Enter your password': 'Saisissez votre mot de passe',
  'Enter the six-digit code from the e-mail': 'Saisissez le code à six chiffres reçu par e-mail',
  // the password rules, as the forms list them, and what passwordProblem says
  'At least 12 characters': 'Au moins 12 caractères',
  'Three of: lower-case letters, capitals, digits, symbols': 'Trois types parmi : minuscules, majuscules, chiffres, symboles',
  'Not your e-mail address': 'Différent de votre adresse e-mail',
  'Not a common password': 'Pas un mot de passe courant',
  'Use at least 12 characters.': 'Utilisez au moins 12 caractères.',
  'Use at most 128 characters.': 'Utilisez au plus 128 caractères.',
  'The password must not contain your e-mail address.': 'Le mot de passe ne doit pas contenir votre adresse e-mail.',
  'This password is too common. Choose one that is harder to guess.': 'Ce mot de passe est trop courant. Choisissez-en un plus difficile à deviner.',
  'Mix at least three of: lower-case letters, capitals, digits and symbols.':
    'Combinez au moins trois types de caractères : minuscules, majuscules, chiffres et symboles.',
  // why a session ended (sessionEndMessage)
  'You signed out in another tab or window.': 'Votre session a été fermée depuis un autre onglet ou une autre fenêtre.',
  'You no longer have access to this partner.': 'Vous n’avez plus accès à ce partenaire.',
  'You no longer have access to {{partner}}.': 'Vous n’avez plus accès à {{partner}}.',
  'An admin reset your password. Sign in again and use the code sent to your e-mail to choose a new one.':
    'Un administrateur a réinitialisé votre mot de passe. Reconnectez-vous et utilisez le code envoyé à votre adresse e-mail pour en choisir un nouveau.',
  'Your password was changed. Sign in with the new password.': 'Votre mot de passe a été modifié. Connectez-vous avec le nouveau mot de passe.',
  'For your security your session was ended, because it was used from two places at once. Sign in again.':
    'Par sécurité, votre session a été fermée, car elle était utilisée depuis deux endroits à la fois. Reconnectez-vous.',
  'This session was ended from your security settings in another browser. Sign in again.':
    'Cette session a été fermée depuis vos paramètres de sécurité dans un autre navigateur. Reconnectez-vous.',
  'Your session has expired. Sign in again.': 'Votre session a expiré. Reconnectez-vous.',
  // the server's own words
  'Sign in to continue.': 'Connectez-vous pour continuer.',
  'Signed out': 'Déconnexion effectuée',
  'Your password has been changed. Sign in with your new password.': 'Votre mot de passe a été modifié. Connectez-vous avec votre nouveau mot de passe.',
  'Password set. Sign in with your new password.': 'Mot de passe défini. Connectez-vous avec votre nouveau mot de passe.',
  'Session ended': 'Session fermée',
};

// ── e-mailed codes and passkeys (otp.ts, passkeys.ts) ──

const CODES_AND_PASSKEYS: Entries = {
  'Too many codes asked for. Wait a few minutes and try again.': 'Trop de codes demandés. Patientez quelques minutes, puis réessayez.',
  'This code was not sent for this change. Ask for a new code for this one.':
    'Ce code n’a pas été envoyé pour cette modification. Demandez un nouveau code pour celle-ci.',
  'We sent a six-digit code to {{email}}.': 'Nous avons envoyé un code à six chiffres à {{email}}.',
  'A code cannot be asked for {{action}}.': 'Aucun code ne peut être demandé pour {{action}}.',
  'Give the passkey a name, such as the device it is on.': 'Donnez un nom à la clé d’accès, par exemple celui de l’appareil sur lequel elle se trouve.',
  "A passkey's name is at most 60 characters.": 'Le nom d’une clé d’accès comporte au plus 60 caractères.',
  'You have 10 passkeys, the most one person may keep. Remove one before adding another.':
    'Vous avez 10 clés d’accès, le maximum autorisé par personne. Retirez-en une avant d’en ajouter une autre.',
  'This passkey could not be checked. Try again, or sign in with your password.':
    'Cette clé d’accès n’a pas pu être vérifiée. Réessayez ou connectez-vous avec votre mot de passe.',
  'The passkey request took too long. Try again.': 'La demande de clé d’accès a pris trop de temps. Réessayez.',
  'This passkey is not one of this portal’s. Sign in with your password, then add it under Settings.':
    'Cette clé d’accès n’appartient pas à ce portail. Connectez-vous avec votre mot de passe, puis ajoutez-la dans Paramètres.',
  'This passkey was refused: its authenticator reported an earlier use count than before, as a copied key would. It is disabled; sign in with your password and tell your administrator.':
    'Cette clé d’accès a été refusée : son authentificateur a signalé un compteur d’utilisation inférieur au précédent, comme le ferait une clé copiée. Elle est désactivée ; connectez-vous avec votre mot de passe et prévenez votre administrateur.',
  'This passkey is not one of yours, or it has been removed already.': 'Cette clé d’accès ne vous appartient pas ou a déjà été retirée.',
  'This passkey is added already.': 'Cette clé d’accès est déjà ajoutée.',
  'The passkey request was cancelled or timed out.': 'La demande de clé d’accès a été annulée ou a expiré.',
  'This browser cannot use passkeys.': 'Ce navigateur ne prend pas en charge les clés d’accès.',
  'Your administrator asked you to choose a new password. Sign in with your e-mail and password to choose it.':
    'Votre administrateur vous demande de choisir un nouveau mot de passe. Connectez-vous avec votre adresse e-mail et votre mot de passe pour le choisir.',
  'Passkey renamed': 'Clé d’accès renommée',
  'Passkey removed': 'Clé d’accès retirée',
};

// ── API keys, allowed IP addresses and the partner API (api-keys.ts, ip-address.ts) ──

const API_KEYS: Entries = {
  'Unknown API key. Check the X-Api-Key header: it is the key id shown in the portal (ak_live_... or ak_test_...).':
    'Clé API inconnue. Vérifiez l’en-tête X-Api-Key : il s’agit de l’identifiant de clé affiché dans le portail (ak_live_... ou ak_test_...).',
  'An API-key call needs the X-Api-Key, X-Api-Timestamp and X-Api-Signature headers.':
    'Un appel par clé API requiert les en-têtes X-Api-Key, X-Api-Timestamp et X-Api-Signature.',
  'Send either an API key or a bearer token, not both.': 'Envoyez soit une clé API, soit un jeton Bearer, mais pas les deux.',
  'This endpoint does not accept API keys: it is for the portal only.': 'Ce point de terminaison n’accepte pas les clés API : il est réservé au portail.',
  "The signature does not match. Sign timestamp + method + path + sha256(body) with the key's secret (see /api/docs).":
    'La signature ne correspond pas. Signez timestamp + method + path + sha256(body) avec le secret de la clé (voir /api/docs).',
  "The request timestamp is more than 300 seconds away from the server's time. Send the current unix time in seconds and check the clock of the calling server.":
    'L’horodatage de la requête s’écarte de plus de 300 secondes de l’heure du serveur. Envoyez l’heure Unix actuelle en secondes et vérifiez l’horloge du serveur appelant.',
  'This API key is disabled. An admin can enable it again in the portal (API Keys).':
    'Cette clé API est désactivée. Un administrateur peut la réactiver dans le portail (Clés API).',
  'This API key expired on {{at}}. Create a new key in the portal (API Keys) and use it instead.':
    'Cette clé API a expiré le {{at}}. Créez une nouvelle clé dans le portail (Clés API) et utilisez-la à la place.',
  'API access is not enabled for this partner. Ask your account manager to enable API keys.':
    'L’accès à l’API n’est pas activé pour ce partenaire. Demandez à votre gestionnaire de compte d’activer les clés API.',
  "Requests from {{ip}} are not allowed for this partner's API keys. Add the address under Allowed IP addresses in the portal.":
    'Les requêtes provenant de {{ip}} ne sont pas autorisées pour les clés API de ce partenaire. Ajoutez l’adresse dans Adresses IP autorisées, dans le portail.',
  'This Idempotency-Key was already used with a different request. Use a new key for a new request.':
    'Cette Idempotency-Key a déjà été utilisée pour une autre requête. Utilisez une nouvelle clé pour chaque nouvelle requête.',
  'A request with this Idempotency-Key is still being processed. Retry in a few seconds.':
    'Une requête avec cette Idempotency-Key est encore en cours de traitement. Réessayez dans quelques secondes.',
  'The Idempotency-Key header must be 1 to 255 visible ASCII characters.': 'L’en-tête Idempotency-Key doit comporter de 1 à 255 caractères ASCII visibles.',
  'Too many requests with this API key: at most {{limit}} every {{window}} seconds. Retry after {{retryAfter}} seconds (the Retry-After header).':
    'Trop de requêtes avec cette clé API : au plus {{limit}} toutes les {{window}} s. Réessayez dans {{retryAfter}} s (en-tête Retry-After).',
  'Enter a name for the key': 'Saisissez un nom pour la clé',
  'Choose at least one permission': 'Choisissez au moins une autorisation',
  'Each permission once': 'Chaque autorisation une seule fois',
  'API keys are for business (B2B) partners.': 'Les clés API sont réservées aux partenaires professionnels (B2B).',
  'API keys are not enabled for your business. Ask your account manager.':
    'Les clés API ne sont pas activées pour votre entreprise. Adressez-vous à votre gestionnaire de compte.',
  'No such API key': 'Clé API introuvable',
  'The expiry must be in the future.': 'La date d’expiration doit être dans le futur.',
  'You can have at most 25 API keys. Delete one you no longer use.': 'Vous pouvez avoir au plus 25 clés API. Supprimez-en une que vous n’utilisez plus.',
  'API key {{name}} deleted': 'Clé API {{name}} supprimée',
  // allowed IP addresses
  'Enter an IPv4 or IPv6 address, or a range in CIDR notation such as 203.0.113.0/24':
    'Saisissez une adresse IPv4 ou IPv6, ou une plage en notation CIDR, par exemple 203.0.113.0/24',
  'The prefix length of an IPv4 range is 1 to 32': 'La longueur de préfixe d’une plage IPv4 est comprise entre 1 et 32',
  'The prefix length of an IPv6 range is 1 to 128': 'La longueur de préfixe d’une plage IPv6 est comprise entre 1 et 128',
  'A /0 range allows every address: leave the list empty instead': 'Une plage /0 autorise toutes les adresses : laissez plutôt la liste vide',
  '{{text}} is not the start of its range: did you mean {{range}}?': '{{text}} n’est pas le début de sa plage : vouliez-vous dire {{range}} ?',
  'Allowed IP addresses are not enabled for your business. Ask your account manager.':
    'Les adresses IP autorisées ne sont pas activées pour votre entreprise. Adressez-vous à votre gestionnaire de compte.',
  'You can allow at most 100 addresses. Use a CIDR range for a block of addresses.':
    'Vous pouvez autoriser au plus 100 adresses. Utilisez une plage CIDR pour un bloc d’adresses.',
  '{{ip}} is already on the list.': '{{ip}} figure déjà dans la liste.',
  '{{ip}} is not on the list.': '{{ip}} ne figure pas dans la liste.',
  '{{ip}} removed from the allowed addresses': '{{ip}} a été retirée des adresses autorisées',
  'Enter a valid IP address': 'Saisissez une adresse IP valide',
  'Enter a shorter label': 'Saisissez un libellé plus court',
};

/** A key's permissions as the permission refusal names them (API_KEY_PERMISSION_LABELS), by code. */
const PERMISSIONS: Record<string, [english: string, french: string]> = {
  api_read: ['API read', 'Lecture API'],
  api_write: ['API write', 'Écriture API'],
  widget: ['Widget', 'Widget'],
};
const PERMISSION_REFUSALS: Entries = entries(
  Object.entries(PERMISSIONS).map(([code, [english, french]]) => [
    `This API key does not have the ${code} permission. Create a key with ${english} to call this endpoint.`,
    'Cette clé API n’a pas l’autorisation ' + code + '. Créez une clé disposant de l’autorisation « ' + french + ' » pour appeler ce point de terminaison.',
  ]),
);

// ── balance, statements, withdrawals and settlement wallets (balance.ts, settlements.ts, wallets.ts) ──

const MONEY: Entries = {
  'The period starts after it ends: choose a start day on or before the end day':
    'La période commence après sa fin : choisissez un jour de début antérieur ou égal au jour de fin',
  'A statement covers at most 366 days: choose a shorter period': 'Un relevé couvre au plus 366 jours : choisissez une période plus courte',
  'This period has {{count}} ledger entries, more than the 50000 a statement holds: choose a shorter period':
    'Cette période compte {{count}} écritures, soit plus que les 50 000 qu’un relevé peut contenir : choisissez une période plus courte',
  'This period has {{count}} ledger entries, more than the 10000 a PDF statement holds: choose a shorter period, or download the CSV':
    'Cette période compte {{count}} écritures, soit plus que les 10 000 qu’un relevé PDF peut contenir : choisissez une période plus courte ou téléchargez le CSV',
  'A PDF statement of your account is being prepared already. Try again in a few seconds, or download the CSV.':
    'Un relevé PDF de votre compte est déjà en cours de préparation. Réessayez dans quelques secondes ou téléchargez le CSV.',
  'You can withdraw at most USD {{max}}': 'Vous pouvez retirer au plus {{max}} USD',
  'Enter amount of at least USD 10.00': 'Saisissez un montant d’au moins 10,00 USD',
  'Cannot withdraw funds without setting a wallet address': 'Impossible de retirer des fonds sans avoir défini d’adresse de portefeuille',
  'Blockchain transactions are irreversible. Check that the wallet address and network are correct: funds sent to a wrong address cannot be recovered.':
    'Les transactions blockchain sont irréversibles. Vérifiez que l’adresse de portefeuille et le réseau sont corrects : les fonds envoyés à une mauvaise adresse ne peuvent pas être récupérés.',
  'Your withdrawal is pending. Processing takes 5 to 20 minutes; it shows in the Settlements tab of Transactions.':
    'Votre retrait est en attente. Le traitement prend de 5 à 20 minutes ; il apparaît dans l’onglet Règlements de Transactions.',
  'The amount does not cover the network fee: enter a larger amount': 'Le montant ne couvre pas les frais de réseau : saisissez un montant plus élevé',
  "Enter the recipient's full name and business registration number: the travel rule asks for them on this amount":
    'Saisissez le nom complet et le numéro d’immatriculation de l’entreprise du bénéficiaire : la Travel Rule les exige pour ce montant',
  'This sequenceId was already used for a different withdrawal: send a new sequenceId for a new withdrawal':
    'Ce sequenceId a déjà été utilisé pour un autre retrait : envoyez un nouveau sequenceId pour chaque nouveau retrait',
  'This wallet address is not enabled for withdrawals: choose an enabled wallet':
    'Cette adresse de portefeuille n’est pas activée pour les retraits : choisissez un portefeuille activé',
  'could not process settlement: ': 'impossible de traiter le règlement : ',
  'could not process settlement: {{reason}}': 'impossible de traiter le règlement : {{reason}}',
  "Couldn't fetch travel rule config": 'Impossible de récupérer la configuration de la Travel Rule',
  'Enter an amount in USD with at most 2 decimals': 'Saisissez un montant en USD avec au plus 2 décimales',
  // test funds (test-mode.ts)
  'Enter an amount such as 1000 or 1000.50': 'Saisissez un montant tel que 1000 ou 1000.50',
  'Enter at most 100000': 'Saisissez au plus 100000',
  'Withdrawals in {{coin}} are not offered: choose a stablecoin wallet':
    'Les retraits en {{coin}} ne sont pas proposés : choisissez un portefeuille de stablecoin',
  'Withdrawals are made from the USD balance: leave fiatWallet empty or send USD':
    'Les retraits se font depuis le solde USD : laissez fiatWallet vide ou envoyez USD',
  'receivingWallet is not the wallet of walletAddress': 'receivingWallet n’est pas le portefeuille de walletAddress',
  'This wallet address receives {{coins}}, not {{coin}}': 'Cette adresse de portefeuille reçoit {{coins}}, et non {{coin}}',
  'The wallet address was disabled or deleted before the withdrawal was sent':
    'L’adresse de portefeuille a été désactivée ou supprimée avant l’envoi du retrait',
  // settlement wallets
  'Enter a valid wallet address': 'Saisissez une adresse de portefeuille valide',
  "New wallet address approved and is pending screening. You'll be notified once approved.":
    'La nouvelle adresse de portefeuille est approuvée et en attente de vérification. Une notification vous sera envoyée dès sa validation.',
  'New wallet address denied': 'Nouvelle adresse de portefeuille refusée',
  'Enter a reason for denying this wallet address': 'Saisissez le motif du refus de cette adresse de portefeuille',
  'You added this wallet address, so another admin or treasury user of your team must review it.':
    'Vous avez ajouté cette adresse de portefeuille : un autre utilisateur Administrateur ou Trésorerie de votre équipe doit donc l’examiner.',
  'This wallet address did not pass screening': 'Cette adresse de portefeuille n’a pas passé la vérification',
  'could not create wallet address: ': 'impossible de créer l’adresse de portefeuille : ',
  'could not create wallet address: {{reason}}': 'impossible de créer l’adresse de portefeuille : {{reason}}',
  'could not delete wallet address: ': 'impossible de supprimer l’adresse de portefeuille : ',
  'could not delete wallet address: {{reason}}': 'impossible de supprimer l’adresse de portefeuille : {{reason}}',
  'could not fetch partner wallets: ': 'impossible de récupérer les portefeuilles du partenaire : ',
  'could not fetch partner wallets: {{reason}}': 'impossible de récupérer les portefeuilles du partenaire : {{reason}}',
  'could not update wallet status: ': 'impossible de mettre à jour le statut du portefeuille : ',
  'could not update wallet status: {{reason}}': 'impossible de mettre à jour le statut du portefeuille : {{reason}}',
  'could not assign partner wallet address: ': 'impossible d’attribuer l’adresse de portefeuille du partenaire : ',
  'could not assign partner wallet address: {{reason}}': 'impossible d’attribuer l’adresse de portefeuille du partenaire : {{reason}}',
  'could not generate otp: ': 'impossible de générer le code à usage unique : ',
  'could not generate otp: {{reason}}': 'impossible de générer le code à usage unique : {{reason}}',
  'Enter the full name of the entity or beneficiary': 'Saisissez le nom complet de l’entité ou du bénéficiaire',
  'Enter the business registration number': 'Saisissez le numéro d’immatriculation de l’entreprise',
  'Choose at least one currency': 'Choisissez au moins une devise',
  // the reasons a wallet address is deleted or denied: chosen in a form, kept with the wallet and shown again
  'This wallet address is no longer used': 'Cette adresse de portefeuille n’est plus utilisée',
  'This wallet was compromised': 'Ce portefeuille a été compromis',
  'This wallet address was added by accident': 'Cette adresse de portefeuille a été ajoutée par erreur',
  'We are using this asset on a different network': 'Nous utilisons cet actif sur un autre réseau',
  'This is not a recognised wallet address': 'Cette adresse de portefeuille n’est pas reconnue',
  'We decided to use a different wallet address': 'Nous avons décidé d’utiliser une autre adresse de portefeuille',
  'There is a mistake in this wallet address': 'Cette adresse de portefeuille contient une erreur',
  // the server's own words
  'This wallet address is registered to another account and cannot be added. Contact support if it is yours.':
    'Cette adresse de portefeuille est enregistrée sur un autre compte et ne peut pas être ajoutée. Contactez le support si elle vous appartient.',
  'Wallet management is not enabled for your account. Contact support to turn it on.':
    'La gestion des portefeuilles n’est pas activée pour votre compte. Contactez le support pour l’activer.',
  'No wallet address of yours matches this address': 'Aucune de vos adresses de portefeuille ne correspond à cette adresse',
  'This address is registered on {{a}} and {{b}} and {{c}} and {{d}}: say which network':
    'Cette adresse est enregistrée sur {{a}}, {{b}}, {{c}} et {{d}} : précisez le réseau',
  'This address is registered on {{a}} and {{b}} and {{c}}: say which network': 'Cette adresse est enregistrée sur {{a}}, {{b}} et {{c}} : précisez le réseau',
  'This address is registered on {{a}} and {{b}}: say which network': 'Cette adresse est enregistrée sur {{a}} et {{b}} : précisez le réseau',
  'You already have 3 enabled or pending wallet addresses for {{pairs}}. Disable or delete one first.':
    'Vous avez déjà 3 adresses de portefeuille activées ou en attente pour {{pairs}}. Désactivez-en ou supprimez-en une d’abord.',
  'A {{network}} address takes no tag or memo': 'Une adresse {{network}} ne prend ni tag ni mémo',
  'A memo id is a whole number from 1 to 18446744073709551615': 'Un identifiant de mémo est un nombre entier compris entre 1 et 18446744073709551615',
  'A text memo has at most 28 bytes': 'Un mémo texte comporte au plus 28 octets',
  '{{coins}} is not offered on {{network}}: choose {{a}} or {{b}} or {{c}}': 'Non proposé sur {{network}} : {{coins}}. Choisissez {{a}}, {{b}} ou {{c}}.',
  '{{coins}} is not offered on {{network}}: choose {{a}} or {{b}}': 'Non proposé sur {{network}} : {{coins}}. Choisissez {{a}} ou {{b}}.',
  '{{coins}} is not offered on {{network}}: choose {{a}}': 'Non proposé sur {{network}} : {{coins}}. Choisissez {{a}}.',
  'Choose one of the networks: {{networks}}': 'Choisissez l’un des réseaux : {{networks}}',
  'This {{network}} address is already one of your wallet addresses': 'Cette adresse {{network}} figure déjà parmi vos adresses de portefeuille',
  'This wallet address was reviewed by someone else just now': 'Cette adresse de portefeuille vient d’être examinée par quelqu’un d’autre',
  'This wallet address was changed by someone else just now': 'Cette adresse de portefeuille vient d’être modifiée par quelqu’un d’autre',
  // deposit (top-up) addresses
  'Address not found': 'Adresse introuvable',
  'No {{coin}} ({{network}}) deposit address can be assigned yet: none is configured. Contact support.':
    'Aucune adresse de dépôt {{coin}} ({{network}}) ne peut encore être attribuée : aucune n’est configurée. Contactez le support.',
  '{{currency}} is not offered on {{network}}': '{{currency}} n’est pas proposé sur {{network}}',
};

/** A settlement wallet's statuses as the server writes them in a sentence ("pending approval"), in French (an address). */
const WALLET_STATUS_WORDS: Record<string, string> = {
  'pending approval': 'en attente d’approbation',
  'pending screening': 'en attente de vérification',
  enabled: 'activée',
  disabled: 'désactivée',
  denied: 'refusée',
  deleted: 'supprimée',
};
const WALLET_STATUS_REFUSALS: Entries = entries(
  Object.entries(WALLET_STATUS_WORDS).flatMap(([english, french]) => [
    [
      `This wallet address is ${english}: only disabled wallet addresses can be enabled`,
      'Cette adresse de portefeuille est ' + french + ' : seules les adresses de portefeuille désactivées peuvent être activées',
    ],
    [
      `This wallet address is ${english}: only enabled wallet addresses can be disabled`,
      'Cette adresse de portefeuille est ' + french + ' : seules les adresses de portefeuille activées peuvent être désactivées',
    ],
    [
      `This wallet address is not waiting for approval (it is ${english})`,
      `Cette adresse de portefeuille n’est pas en attente d’approbation (elle est ${french})`,
    ],
  ]),
);

// ── payments and fiat wallets (payments.ts, fiat-wallets.ts) ──

const PAYMENTS: Entries = {
  'Payments are not enabled for this partner': 'Les paiements ne sont pas activés pour ce partenaire',
  'This channel is not available: choose an active channel of the country': 'Ce canal n’est pas disponible : choisissez un canal actif du pays',
  'This payment network is not available for this channel: choose an active network':
    'Ce réseau de paiement n’est pas disponible pour ce canal : choisissez un réseau actif',
  'This country is not enabled for your account': 'Ce pays n’est pas activé pour votre compte',
  'Enter an amount of at least {{currency}} {{min}}': 'Saisissez un montant d’au moins {{min}} {{currency}}',
  'Enter an amount of at most {{currency}} {{max}}': 'Saisissez un montant d’au plus {{max}} {{currency}}',
  'Enter an amount above zero': 'Saisissez un montant supérieur à zéro',
  'Enter an amount in the local currency with at most 2 decimals': 'Saisissez un montant en monnaie locale avec au plus 2 décimales',
  'Your USD balance ({{balance}}) does not cover this payment and its fee': 'Votre solde USD ({{balance}}) ne couvre pas ce paiement et ses frais',
  'This sequenceId was already used for a different payment: send a new sequenceId for a new payment':
    'Ce sequenceId a déjà été utilisé pour un autre paiement : envoyez un nouveau sequenceId pour chaque nouveau paiement',
  'Enter a phone number with its country code, digits only (7 to 15)':
    'Saisissez un numéro de téléphone avec son indicatif pays, uniquement des chiffres (7 à 15)',
  'Enter a bank account number of 6 to 20 digits': 'Saisissez un numéro de compte bancaire de 6 à 20 chiffres',
  'Enter the app account id (3 to 64 letters, digits, . _ - @)': 'Saisissez l’identifiant du compte d’application (3 à 64 lettres, chiffres, . _ - @)',
  'Payment not found': 'Paiement introuvable',
  // why a sandbox payment ended (its failure reason)
  'The receiving network refused the payment (sandbox test amount ending in 1)':
    'Le réseau destinataire a refusé le paiement (montant de test du bac à sable se terminant par 1)',
  'The payment was not completed in time (sandbox test amount ending in 2)':
    'Le paiement n’a pas été finalisé à temps (montant de test du bac à sable se terminant par 2)',
  'The payment was denied by compliance review (sandbox test amount ending in 4)':
    'Le paiement a été refusé lors du contrôle de conformité (montant de test du bac à sable se terminant par 4)',
  // fiat wallets
  'Fiat wallets are not enabled for your account.': 'Les portefeuilles en monnaie fiat ne sont pas activés pour votre compte.',
  'No such fiat wallet.': 'Portefeuille en monnaie fiat introuvable.',
  'The default USD wallet is always on for payments and collections.':
    'Le portefeuille USD par défaut reste toujours activé pour les paiements et les encaissements.',
  'could not fetch partner fiat wallets: {{reason}}': 'impossible de récupérer les portefeuilles en monnaie fiat du partenaire : {{reason}}',
  'cannot get partner fiat wallets without partner and user':
    'impossible d’obtenir les portefeuilles en monnaie fiat du partenaire sans partenaire ni utilisateur',
  'cannot update partner fiat wallet without partner and user':
    'impossible de mettre à jour le portefeuille en monnaie fiat du partenaire sans partenaire ni utilisateur',
  'Send paymentEnabled, collectionEnabled or both': 'Envoyez paymentEnabled, collectionEnabled ou les deux',
  'The currency must be a three-letter code other than USD (the default wallet)':
    'La devise doit être un code à trois lettres autre que USD (le portefeuille par défaut)',
  'The country must be a two-letter code': 'Le pays doit être un code à deux lettres',
  'The partner has a {{currency}} wallet already': 'Le partenaire possède déjà un portefeuille {{currency}}',
};

// ── payouts and the low balance limit (payout.ts) ──

const PAYOUTS: Entries = {
  'Choose how often payouts happen.': 'Choisissez la fréquence des décaissements.',
  'A weekly schedule needs at least one day.': 'Un calendrier hebdomadaire nécessite au moins un jour.',
  'A monthly schedule needs a date of the month.': 'Un calendrier mensuel nécessite une date dans le mois.',
  'A yearly schedule needs a month and a day.': 'Un calendrier annuel nécessite un mois et un jour.',
  'Choose when payouts end.': 'Choisissez quand les décaissements prennent fin.',
  'Say after how many payouts the schedule ends.': 'Indiquez après combien de décaissements le calendrier prend fin.',
  'Choose the date on which payouts end.': 'Choisissez la date à laquelle les décaissements prennent fin.',
  'Invalid low balance limit value': 'Valeur du seuil de solde bas non valide',
  'Invalid low balance limit value: enter an amount in USD.': 'Valeur du seuil de solde bas non valide : saisissez un montant en USD.',
  'Invalid low balance limit value: the limit must be above zero.': 'Valeur du seuil de solde bas non valide : le seuil doit être supérieur à zéro.',
  'Invalid low balance limit value: enter a number, like 1000 or 2500.50.':
    'Valeur du seuil de solde bas non valide : saisissez un nombre, par exemple 1000 ou 2500.50.',
  'Invalid low balance limit value: use at most 2 decimals (cents).': 'Valeur du seuil de solde bas non valide : utilisez au plus 2 décimales (centimes).',
  'Invalid low balance limit value: the limit is too large.': 'Valeur du seuil de solde bas non valide : le seuil est trop élevé.',
};

/** The months of a yearly payout date, for "April has no day 31." (payoutConfigProblem: 29 February is allowed). */
const MONTHS: [english: string, french: string, days: number][] = [
  ['January', 'janvier', 31],
  ['February', 'février', 29],
  ['March', 'mars', 31],
  ['April', 'avril', 30],
  ['May', 'mai', 31],
  ['June', 'juin', 30],
  ['July', 'juillet', 31],
  ['August', 'août', 31],
  ['September', 'septembre', 30],
  ['October', 'octobre', 31],
  ['November', 'novembre', 30],
  ['December', 'décembre', 31],
];
const MISSING_DAYS: Entries = entries(
  MONTHS.flatMap(([english, french, days]) =>
    Array.from({ length: 31 - days }, (_, i) => [`${english} has no day ${days + i + 1}.`, `Il n’y a pas de ${days + i + 1} ${french}.`] as const),
  ),
);

// ── enabled countries (rates.ts) ──

const RATES: Entries = {
  "Couldn't fetch partner rates": 'Impossible de récupérer les taux du partenaire',
  "Couldn't update partner rates": 'Impossible de mettre à jour les taux du partenaire',
  "Couldn't review partner rate status changes": 'Impossible d’examiner les changements de statut des taux du partenaire',
  'Request approved': 'Demande approuvée',
  'Request denied': 'Demande refusée',
  'Error occured while approving changes': 'Une erreur s’est produite lors de l’approbation des modifications',
  'A change must be approved by another admin than the one who asked for it.':
    'Une modification doit être approuvée par un administrateur autre que celui qui l’a demandée.',
  'Enabled countries are not available for your account.': 'Les pays activés ne sont pas disponibles pour votre compte.',
  'No such rate.': 'Taux introuvable.',
};

/** The server names a country rate as "Kenya (KES)": the markets' names in French, by their code. */
const FRENCH_COUNTRY_NAMES: Record<Country, string> = {
  NG: 'Nigeria',
  KE: 'Kenya',
  GH: 'Ghana',
  ZA: 'Afrique du Sud',
  UG: 'Ouganda',
  TZ: 'Tanzanie',
  RW: 'Rwanda',
  CM: 'Cameroun',
  SN: 'Sénégal',
  CI: 'Côte d’Ivoire',
  ZM: 'Zambie',
  MW: 'Malawi',
  BJ: 'Bénin',
  TG: 'Togo',
  BF: 'Burkina Faso',
  CD: 'Congo-Kinshasa',
  BW: 'Botswana',
};
const RATE_REFUSALS: [english: string, french: string][] = [
  ['{{place}} already has a change waiting for review.', '{{place}} : une modification attend déjà d’être examinée.'],
  ['{{place}} is already enabled.', '{{place}} : ce pays est déjà activé.'],
  ['{{place}} is already disabled.', '{{place}} : ce pays est déjà désactivé.'],
  ['{{place}} has no change waiting for review.', '{{place}} : aucune modification n’attend d’être examinée.'],
  [
    '{{place}} has no change waiting for review: it was reviewed or changed meanwhile.',
    '{{place}} : aucune modification n’attend d’être examinée ; elle a été examinée ou modifiée entre-temps.',
  ],
];
const COUNTRY_REFUSALS: Entries = entries(
  (Object.entries(COUNTRY_CURRENCIES) as [Country, string][]).flatMap(([code, currency]) =>
    RATE_REFUSALS.map(
      ([english, french]) =>
        [
          english.replace('{{place}}', `${countryName(code)} (${currency})`),
          french.replace('{{place}}', `${FRENCH_COUNTRY_NAMES[code]} (${currency})`),
        ] as const,
    ),
  ),
);

// ── the team, roles and notifications (team.ts, notifications.ts) ──

const TEAM: Entries = {
  'Someone in your team has this e-mail address already.': 'Un membre de votre équipe utilise déjà cette adresse e-mail.',
  'This address has an invitation waiting already. Use Resend invitation to send a new link.':
    'Une invitation est déjà en attente pour cette adresse. Utilisez « Renvoyer l’invitation » pour envoyer un nouveau lien.',
  'This invitation link has expired or was already used. Ask an admin of your team to send a new invitation.':
    'Ce lien d’invitation a expiré ou a déjà été utilisé. Demandez à un administrateur de votre équipe de vous envoyer une nouvelle invitation.',
  'This e-mail address already has a Partner Dashboard account, and an address can belong to one account only. Ask the admin who invited you to invite another address.':
    'Cette adresse e-mail possède déjà un compte Partner Dashboard, et une adresse ne peut appartenir qu’à un seul compte. Demandez à l’administrateur qui vous a invité d’inviter une autre adresse.',
  'Your team must keep at least one active admin. Make someone else an admin first.':
    'Votre équipe doit conserver au moins un administrateur actif. Nommez d’abord une autre personne administrateur.',
  'No such user in your team.': 'Cet utilisateur ne fait pas partie de votre équipe.',
  'This user has already accepted the invitation.': 'Cet utilisateur a déjà accepté l’invitation.',
  'This invitation has not been accepted yet: there is no password to reset.':
    'Cette invitation n’a pas encore été acceptée : il n’y a aucun mot de passe à réinitialiser.',
  'This user has no password reset waiting for a code.': 'Cet utilisateur n’a aucune réinitialisation de mot de passe en attente de code.',
  'Only an active user can have the password reset. Resend the invitation instead.':
    'Seul le mot de passe d’un utilisateur actif peut être réinitialisé. Renvoyez plutôt l’invitation.',
  'Invitation sent to {{email}}': 'Invitation envoyée à {{email}}',
  '{{email}} is listed as invited, but the invitation e-mail could not be sent just now. Use Resend invitation in a few minutes.':
    '{{email}} figure parmi les invités, mais l’e-mail d’invitation n’a pas pu être envoyé pour le moment. Utilisez « Renvoyer l’invitation » dans quelques minutes.',
  'A new invitation was sent to {{email}}': 'Une nouvelle invitation a été envoyée à {{email}}',
  'A new code was sent to {{email}}': 'Un nouveau code a été envoyé à {{email}}',
  '{{email}} is signed out and must choose a new password with the code we e-mailed':
    'La session de {{email}} a été fermée : un nouveau mot de passe doit être choisi avec le code envoyé par e-mail',
  '{{email}} was removed from the team': '{{email}} ne fait plus partie de l’équipe',
  'The invitation to {{email}} was withdrawn: its link no longer works': 'L’invitation de {{email}} a été retirée : son lien ne fonctionne plus',
  'Unknown user': 'Utilisateur inconnu',
  'Enter a name': 'Saisissez un nom',
  'Send a time zone, a language or a first screen': 'Envoyez un fuseau horaire, une langue ou un premier écran',
  'Only an admin can do this.': 'Seul un administrateur peut effectuer cette action.',
  'Too many attempts from your network. Wait a minute and try again.': 'Trop de tentatives depuis votre réseau. Patientez une minute, puis réessayez.',
  'Too many e-mails sent from your network. Wait a minute and try again.': 'Trop d’e-mails envoyés depuis votre réseau. Patientez une minute, puis réessayez.',
  'Name each topic once': 'Citez chaque sujet une seule fois',
};

/** The roles by code, with their labels (ROLE_LABELS) in both languages. */
const ROLES: Record<string, [english: string, french: string]> = {
  admin: ['Admin', 'Administrateur'],
  treasury: ['Treasury', 'Trésorerie'],
  view: ['View only', 'Lecture seule'],
};
/** The roles a refusal of the server can name as the ones that may act ("Only admin or treasury users can do this."). */
const ROLE_CHOICES = [['treasury'], ['view'], ['admin', 'treasury'], ['admin', 'view'], ['treasury', 'view'], ['admin', 'treasury', 'view']];
const frenchList = (words: string[]) => (words.length === 1 ? words[0]! : `${words.slice(0, -1).join(', ')} ou ${words.at(-1)!}`);
const ROLE_ENTRIES: Entries = {
  ...entries(Object.values(ROLES)),
  ...entries(Object.values(ROLES).map(([english, french]) => [`{{email}} is now ${english}`, `{{email}} a désormais le rôle ${french}`])),
  ...entries(
    ROLE_CHOICES.map((codes) => [
      `Only ${codes.join(' or ')} users can do this.`,
      `Seuls les utilisateurs ${frenchList(codes.map((code) => ROLES[code]![1]))} peuvent effectuer cette action.`,
    ]),
  ),
  'Only {{roles}} users can do this.': 'Seuls les utilisateurs {{roles}} peuvent effectuer cette action.',
};

/** The notification topics as the server names them in a refusal (their label in lower case). */
const TOPIC_REFUSALS: Entries = entries(
  (
    [
      ['withdrawals', 'sur les retraits'],
      ['wallet addresses', 'sur les adresses de portefeuille'],
      ['countries', 'sur les pays'],
      ['low balance', 'de solde bas'],
      ['api keys, allowed ips and webhooks', 'sur les clés API, les adresses IP autorisées et les webhooks'],
      ['your account', 'sur votre compte'],
    ] as const
  ).map(([english, french]) => [`Your role gets no ${english} notifications.`, `Votre rôle ne reçoit pas de notifications ${french}.`]),
);

// ── security history, transactions, reports, webhooks (security.ts, transactions.ts, time-zone.ts, webhooks.ts) ──

const OTHERS: Entries = {
  'You can only see your own security history. Ask an admin of your team for the rest.':
    'Vous ne pouvez consulter que votre propre historique de sécurité. Demandez le reste à un administrateur de votre équipe.',
  'This page of the history can no longer be read. Start again from the first page.':
    'Cette page de l’historique ne peut plus être lue. Recommencez depuis la première page.',
  'This session is not one of yours, or it has ended already.': 'Cette session ne vous appartient pas ou a déjà pris fin.',
  'This is the session you are using. Sign out to end it.': 'Il s’agit de la session que vous utilisez. Déconnectez-vous pour y mettre fin.',
  'Operator (payments provider)': 'Opérateur (prestataire de paiement)',
  'Choose an amount range such as 1000-5000': 'Choisissez une plage de montants, par exemple 1000-5000',
  'The end date must be on or after the start date.': 'La date de fin doit être identique ou postérieure à la date de début.',
  // the Overview (analytics.ts)
  'Choose a period of at most 366 days.': 'Choisissez une période d’au plus 366 jours.',
  'Enter a trade ID as the table shows it, or its first characters, like TRD-5F41110478.':
    'Saisissez un ID d’opération tel que le tableau l’affiche, ou ses premiers caractères, par exemple TRD-5F41110478.',
  'Enter an ID as the table shows it, or its first characters: digits, letters a to f and hyphens, like 3f2a9c1e.':
    'Saisissez un ID tel que le tableau l’affiche, ou ses premiers caractères : chiffres, lettres de a à f et traits d’union, par exemple 3f2a9c1e.',
  'Choose a time zone such as Africa/Nairobi or UTC.': 'Choisissez un fuseau horaire, par exemple Africa/Nairobi ou UTC.',
  'The scroll id is not valid or has expired; start the export again.':
    'L’identifiant de défilement (scroll id) n’est pas valide ou a expiré ; relancez l’export.',
  'No transaction with that id': 'Aucune transaction avec cet identifiant',
  // reports
  'You already have 1 report being prepared. Wait for one to finish.': 'Vous avez déjà 1 rapport en cours de préparation. Attendez qu’il soit terminé.',
  'You already have {{count}} reports being prepared. Wait for one to finish.':
    'Vous avez déjà {{count}} rapports en cours de préparation. Attendez que l’un d’eux soit terminé.',
  'Report downloads are not enabled for your account.': 'Les téléchargements de rapports ne sont pas activés pour votre compte.',
  'A report can span a year at most.': 'Un rapport peut couvrir une année au maximum.',
  'No such report': 'Rapport introuvable',
  'This report has expired. Request it again.': 'Ce rapport a expiré. Demandez-le à nouveau.',
  'This report is not ready yet.': 'Ce rapport n’est pas encore prêt.',
  // webhooks
  'Webhooks are not enabled for your account.': 'Les webhooks ne sont pas activés pour votre compte.',
  'Webhooks are available to business (B2B) partners.': 'Les webhooks sont réservés aux partenaires professionnels (B2B).',
  'Webhook not found.': 'Webhook introuvable.',
  'Webhook delivery not found.': 'Envoi de webhook introuvable.',
  'You can have at most 16 webhooks. Delete one first.': 'Vous pouvez avoir au plus 16 webhooks. Supprimez-en un d’abord.',
  'Enter a valid URL starting with https:// or http://': 'Saisissez une URL valide commençant par https:// ou http://',
  'Use an https:// URL.': 'Utilisez une URL en https://.',
  'This URL points to a private, loopback or link-local address. Use an address reachable from the internet.':
    'Cette URL pointe vers une adresse privée, de bouclage ou locale au lien. Utilisez une adresse accessible depuis Internet.',
  'The host of this URL could not be found.': 'L’hôte de cette URL est introuvable.',
  'Choose at least one event.': 'Choisissez au moins un événement.',
  'Too many test events and resends. Wait a minute and try again.': 'Trop d’événements de test et de renvois. Patientez une minute, puis réessayez.',
  'Enter a valid URL': 'Saisissez une URL valide',
  'Nothing to change.': 'Rien à modifier.',
  'This delivery is still being attempted. Resend it once it has succeeded or failed.':
    'Cet envoi est encore en cours de tentative. Renvoyez-le une fois qu’il a réussi ou échoué.',
  // why a webhook delivery attempt got no usable answer
  'Refused: {{host}} resolves to {{address}}, a private, loopback or link-local address':
    'Refusé : {{host}} pointe vers {{address}}, une adresse privée, de bouclage ou locale au lien',
  'Refused: {{host}} could not be resolved': 'Refusé : impossible de résoudre {{host}}',
  'Refused: {{reason}}': 'Refusé : {{reason}}',
  'Timed out after {{seconds}} s': 'Délai dépassé après {{seconds}} s',
  'Connection refused': 'Connexion refusée',
  'Connection reset': 'Connexion réinitialisée',
  'Host not found': 'Hôte introuvable',
  'TLS error: {{detail}}': 'Erreur TLS : {{detail}}',
  'Network error: {{detail}}': 'Erreur réseau : {{detail}}',
  'Network error': 'Erreur réseau',
  'Not sent: the webhook is disabled.': 'Non envoyé : le webhook est désactivé.',
};

// ── the server's answers to requests it cannot take (error-handler.ts and others) ──

const SERVER: Entries = {
  'The request body is not valid JSON': 'Le corps de la requête n’est pas un JSON valide',
  'The request body is empty but its content type is JSON': 'Le corps de la requête est vide alors que son type de contenu est JSON',
  'Send the request body as application/json': 'Envoyez le corps de la requête au format application/json',
  'The content length does not match the body': 'La longueur du contenu ne correspond pas au corps de la requête',
  'The request body is too large': 'Le corps de la requête est trop volumineux',
  'The URL is not valid: check its percent-encoding': 'L’URL n’est pas valide : vérifiez son encodage en pourcentage',
  'A part of the URL is too long': 'Une partie de l’URL est trop longue',
  'Something went wrong on our side. Please try again.': 'Une erreur s’est produite de notre côté. Veuillez réessayer.',
  'No route for {{method}} {{path}}': 'Aucune route pour {{method}} {{path}}',
  'The service is briefly unavailable. Please try again in a few seconds.':
    'Le service est momentanément indisponible. Veuillez réessayer dans quelques secondes.',
  'Your organisation has many requests running at once. Please try again in a few seconds.':
    'Votre organisation a de nombreuses requêtes en cours. Veuillez réessayer dans quelques secondes.',
  'The e-mail could not be sent just now. Try again in a few minutes.': 'L’e-mail n’a pas pu être envoyé pour le moment. Réessayez dans quelques minutes.',
  'Too many open event streams: close other tabs of the portal and try again.':
    'Trop de flux d’événements ouverts : fermez les autres onglets du portail, puis réessayez.',
  'Send the metrics token as Authorization: Bearer <token>.': 'Envoyez le jeton de métriques dans l’en-tête Authorization: Bearer <token>.',
  'No such partner': 'Partenaire introuvable',
  'No partner {{id}}': 'Partenaire {{id}} introuvable',
  'A partner with the abbreviation {{abbreviation}} exists already': 'Un partenaire avec l’abréviation {{abbreviation}} existe déjà',
};

// ── validation: the server's words for a request that fails its schema (its validation messages) ──

/**
 * What is wrong with a value, as the server says it after the field ("Start date must be a real date YYYY-MM-DD")
 * and a form under it: the schemas' own messages that start in lower case, and the server's plain words for zod's.
 * In order: a longer text before a shorter one that starts the same way.
 */
const PREDICATES: [english: string, french: string][] = [
  ['must be valid Unicode text (it holds half of a surrogate pair)', 'doit être un texte Unicode valide (il contient une moitié de paire de substitution)'],
  ['must not contain control characters', 'ne doit pas contenir de caractères de contrôle'],
  ['must be a real date YYYY-MM-DD', 'doit être une date réelle au format AAAA-MM-JJ'],
  ['must be a two-letter country code', 'doit être un code pays à deux lettres'],
  ['must be a decimal number such as 1000.50', 'doit être un nombre décimal, par exemple 1000.50'],
  ['must be 1 to 64 printable ASCII characters', 'doit comporter de 1 à 64 caractères ASCII imprimables'],
  ['must name each rate once', 'doit citer chaque taux une seule fois'],
  ['is not an API key id', 'n’est pas un identifiant de clé API'],
  ['is required', 'est obligatoire'],
  ['must be a text', 'doit être un texte'],
  ['must be a number', 'doit être un nombre'],
  ['must be a whole number', 'doit être un nombre entier'],
  ['must be a true or false', 'doit valoir true ou false'],
  ['must be an object', 'doit être un objet'],
  ['must be a list', 'doit être une liste'],
  ['must be a date', 'doit être une date'],
  ['must be another kind of value', 'doit être d’un autre type'],
  ['must not be empty', 'ne doit pas être vide'],
  ['must be a valid e-mail address', 'doit être une adresse e-mail valide'],
  ['must be a valid ID', 'doit être un identifiant valide'],
  ['is not in the expected format', 'n’est pas au format attendu'],
  ['is not one of the values allowed', 'ne fait pas partie des valeurs autorisées'],
  ['is not valid', 'n’est pas valide'],
  ['must be at least {{min}} characters long', 'doit comporter au moins {{min}} caractères'],
  ['must be at most {{max}} characters long', 'doit comporter au plus {{max}} caractères'],
  ['must have at least 1 item', 'doit contenir au moins 1 élément'],
  ['must have at least {{min}} items', 'doit contenir au moins {{min}} éléments'],
  ['must have at most 1 item', 'doit contenir au plus 1 élément'],
  ['must have at most {{max}} items', 'doit contenir au plus {{max}} éléments'],
  ['has a field it does not know: {{keys}}', 'contient un champ inconnu : {{keys}}'],
  ['has fields it does not know: {{keys}}', 'contient des champs inconnus : {{keys}}'],
  ['must be one of: {{values}}', 'doit avoir l’une des valeurs suivantes : {{values}}'],
  ['must be more than {{min}}', 'doit dépasser {{min}}'],
  ['must be less than {{max}}', 'ne doit pas atteindre {{max}}'],
  ['must be at least {{min}}', 'doit être d’au moins {{min}}'],
  ['must be at most {{max}}', 'doit être d’au plus {{max}}'],
];

/**
 * The schemas' messages that are sentences of their own: the server writes them after the field and a colon
 * ("E-mail: Enter a valid e-mail address"), a form shows them as they are. Their French is in the sections above.
 */
const SENTENCES = [
  'Enter a valid e-mail address',
  'Enter your password',
  'The code you entered is incorrect. Try again.',
  'Enter the six-digit code from the e-mail',
  'Enter a name for the key',
  'Choose at least one permission',
  'Each permission once',
  'Enter an IPv4 or IPv6 address, or a range in CIDR notation such as 203.0.113.0/24',
  'The prefix length of an IPv4 range is 1 to 32',
  'The prefix length of an IPv6 range is 1 to 128',
  'A /0 range allows every address: leave the list empty instead',
  '{{text}} is not the start of its range: did you mean {{range}}?',
  'Send paymentEnabled, collectionEnabled or both',
  'Name each topic once',
  'Give the passkey a name, such as the device it is on.',
  "A passkey's name is at most 60 characters.",
  'This passkey could not be checked. Try again, or sign in with your password.',
  'Enter an amount above zero',
  'Enter an amount in the local currency with at most 2 decimals',
  'Enter a phone number with its country code, digits only (7 to 15)',
  'Enter a bank account number of 6 to 20 digits',
  'Enter the app account id (3 to 64 letters, digits, . _ - @)',
  'Enter an amount in USD with at most 2 decimals',
  'Enter an amount such as 1000 or 1000.50',
  'Enter at most 100000',
  'Enter a valid wallet address',
  'Enter the full name of the entity or beneficiary',
  'Enter the business registration number',
  'Choose at least one currency',
  'Unknown user',
  'Enter a name',
  'Send a time zone, a language or a first screen',
  'Choose a time zone such as Africa/Nairobi or UTC.',
  'Choose an amount range such as 1000-5000',
  'Enter a valid URL starting with https:// or http://',
  'Choose at least one event.',
  'Invalid ISO datetime',
  'Invalid GUID',
  'Invalid input',
] as const;

/** zod's own messages, as a form that shows them as they are gets them (the server says them in its words). */
const ZOD_DEFAULTS: Entries = {
  'Too small: expected string to have >={{min}} characters': 'Trop court : au moins {{min}} caractères attendus',
  'Too big: expected string to have <={{max}} characters': 'Trop long : au plus {{max}} caractères attendus',
  'Too small: expected array to have >={{min}} items': 'Trop peu d’éléments : au moins {{min}} attendus',
  'Too big: expected array to have <={{max}} items': 'Trop d’éléments : au plus {{max}} attendus',
  'Too small: expected number to be >={{min}}': 'Valeur trop basse : {{min}} au minimum',
  'Too big: expected number to be <={{max}}': 'Valeur trop élevée : {{max}} au maximum',
  'Too small: expected number to be >{{min}}': 'Valeur trop basse : elle doit dépasser {{min}}',
  'Too big: expected number to be <{{max}}': 'Valeur trop élevée : elle doit rester sous {{max}}',
  'Invalid input: expected {{expected}}, received {{received}}': 'Saisie non valide : {{expected}} attendu, {{received}} reçu',
  'Invalid option: expected one of {{values}}': 'Option non valide : valeur attendue parmi {{values}}',
  'Unrecognized key: {{keys}}': 'Clé inconnue : {{keys}}',
  'Unrecognized keys: {{keys}}': 'Clés inconnues : {{keys}}',
  'Invalid email address': 'Adresse e-mail non valide',
  'Invalid UUID': 'UUID non valide',
  'Invalid GUID': 'GUID non valide',
  'Invalid URL': 'URL non valide',
  'Invalid ISO date': 'Date ISO non valide',
  'Invalid ISO datetime': 'Date et heure ISO non valides',
  'Invalid input': 'Saisie non valide',
};

/** A lower-case start for a sentence after a colon, unless it starts with a code or an acronym ("URL", "{{text}}"). */
const afterColon = (text: string) => (/^\p{Lu}\p{Ll}/u.test(text) ? text.charAt(0).toLowerCase() + text.slice(1) : text);

/** Where the server says a request's part is wrong rather than a field of it ("The request has fields it does not know: x"). */
const PARTS: [english: string, french: string][] = [
  ['The request', 'La requête'],
  ['The query', 'La chaîne de requête'],
  ['The address', 'L’adresse de la requête'],
  ['The headers', 'L’ensemble des en-têtes'],
];

/**
 * The server's validation messages, built as it builds them: a field (its English words, which stay as they are), a
 * colon and a sentence. These come before the other messages: one sentence starts with a value, and would be taken
 * for a message of its own.
 */
function fieldSentences(french: Entries): Entries {
  const sentence = (english: string) => french[english] ?? ZOD_DEFAULTS[english] ?? english;
  return entries(SENTENCES.map((english) => [`{{field}}: ${english}`, 'Champ « {{field}} » : ' + afterColon(sentence(english))] as const));
}

/**
 * The other validation messages: a part or a field and a predicate, after the other messages. A few schema messages
 * name their field themselves ("cryptoAmount or amount is required"): their whole messages come first.
 */
const PREDICATE_MESSAGES: Entries = {
  'Crypto amount cryptoAmount or amount is required': 'Indiquez cryptoAmount ou amount',
  'cryptoAmount or amount is required': 'Indiquez cryptoAmount ou amount',
  'Sequence ID sequenceId must be 8 to 100 letters, digits, - or _': 'Le champ sequenceId doit comporter de 8 à 100 lettres, chiffres, - ou _',
  'sequenceId must be 8 to 100 letters, digits, - or _': 'sequenceId doit comporter de 8 à 100 lettres, chiffres, - ou _',
  'Start index startIndex + size must be at most 10000': 'startIndex + size doit être d’au plus 10000',
  'startIndex + size must be at most 10000': 'startIndex + size doit être d’au plus 10000',
  ...entries(PARTS.flatMap(([part, partFr]) => PREDICATES.map(([english, fr]) => [`${part} ${english}`, `${partFr} ${fr}`] as const))),
  ...entries(PREDICATES.map(([english, fr]) => [`{{field}} ${english}`, 'Le champ « {{field}} » ' + fr] as const)),
  ...entries(PREDICATES),
};

const MESSAGES: Entries = {
  ...AUTH,
  ...CODES_AND_PASSKEYS,
  ...API_KEYS,
  ...PERMISSION_REFUSALS,
  ...MONEY,
  ...WALLET_STATUS_REFUSALS,
  ...PAYMENTS,
  ...PAYOUTS,
  ...MISSING_DAYS,
  ...RATES,
  ...COUNTRY_REFUSALS,
  ...entries(RATE_REFUSALS),
  ...TEAM,
  ...ROLE_ENTRIES,
  ...TOPIC_REFUSALS,
  ...OTHERS,
  ...SERVER,
};

export const FRENCH_MESSAGES: MessageCatalogue = {
  /**
   * Several validation problems come joined by "; ", and are translated one by one before they are joined: matched
   * whole, a joined text would put the other problems into one template's field. Such a text is kept as it is; this
   * comes first so that no other template sees one.
   */
  '{{first}}; {{rest}}': '{{first}}; {{rest}}',
  ...fieldSentences(MESSAGES),
  ...MESSAGES,
  ...PREDICATE_MESSAGES,
  ...ZOD_DEFAULTS,
};
