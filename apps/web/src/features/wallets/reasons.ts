import type { WALLET_DELETION_REASONS, WALLET_DENIAL_REASONS } from '@portal/contract/wallets';
import { localizeMessage, type Translate } from '../../lib/i18n.ts';
import type { WalletsKey, walletsMessages } from './messages.ts';

type Reason = (typeof WALLET_DELETION_REASONS)[number] | (typeof WALLET_DENIAL_REASONS)[number];

/**
 * The reasons offered for deleting or denying a wallet, by the words the server keeps (the request sends the English
 * reason itself): each is shown in the reader's language, in the dialogs and where the table shows a wallet's reason.
 */
const REASON_KEYS: Record<Reason, WalletsKey> = {
  'This wallet address is no longer used': 'reason.noLongerUsed',
  'This wallet was compromised': 'reason.compromised',
  'This wallet address was added by accident': 'reason.byAccident',
  'We are using this asset on a different network': 'reason.otherNetwork',
  'This is not a recognised wallet address': 'reason.notRecognised',
  'We decided to use a different wallet address': 'reason.differentWallet',
  'There is a mistake in this wallet address': 'reason.mistake',
};

/** A wallet's reason as the reader reads it: an offered one translated, a message of the portal's too, free text as typed. */
export function reasonText(t: Translate<typeof walletsMessages.en>, reason: string): string {
  const key = (REASON_KEYS as Record<string, WalletsKey | undefined>)[reason];
  return key ? t(key) : localizeMessage(reason);
}
