import { DEFAULT_FIAT_WALLET, FIAT_WALLET_MESSAGES, type FiatWallet, type UpdateFiatWalletRequest } from '@portal/contract/fiat-wallets';
import { auditChange } from '../../lib/audit.repository.ts';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors.ts';
import { requireCan, type Auth } from '../../lib/access.ts';
import type { Ledger } from '../ledger/index.ts';
import type { FiatWalletsRepository } from './fiat-wallets.repository.ts';

type StoredWallet = { id: number; currency: string; country: string; payment_enabled: boolean; collection_enabled: boolean };

const toWallet = (w: StoredWallet, balance: string): FiatWallet => ({
  id: w.id,
  currency: w.currency,
  country: w.country,
  paymentEnabled: w.payment_enabled,
  collectionEnabled: w.collection_enabled,
  balance,
});

const disabled = () => new AppError(403, 'FiatWalletsDisabled', FIAT_WALLET_MESSAGES.disabled);

/**
 * Fiat wallets of the caller's partner (portal-core §3, §7). With fiatWalletsEnabled the default USD/US wallet
 * (id 1, both switches on, not stored, not changeable) comes first, then the stored ones; without it the partner has
 * none. Balances are the ledger's. Admin and treasury users switch payments and collections; view users only look.
 */
export function createFiatWalletsService(deps: {
  repo: FiatWalletsRepository;
  /** each wallet's balance, and the account a new wallet opens (the ledger module's port) */
  ledger: Pick<Ledger, 'balance' | 'balances' | 'open'>;
  now: () => number;
}) {
  const { repo, ledger } = deps;

  return {
    /** The operator adds a wallet in a local currency (CLI add-fiat-wallet); both switches start on. */
    async addForOperator(partnerId: string, raw: { currency: string; country: string }) {
      const currency = raw.currency.trim().toUpperCase();
      const country = raw.country.trim().toUpperCase();
      if (!/^[A-Z]{3}$/.test(currency) || currency === DEFAULT_FIAT_WALLET.currency) throw badRequest(FIAT_WALLET_MESSAGES.currencyCode);
      if (!/^[A-Z]{2}$/.test(country)) throw badRequest(FIAT_WALLET_MESSAGES.countryCode);
      return repo.transaction(async (trx) => {
        await ledger.open(trx, partnerId, currency);
        const id = await repo.insert(trx, { partnerId, currency, country });
        if (id === undefined) throw conflict(FIAT_WALLET_MESSAGES.exists(currency));
        await auditChange(trx, { partnerId, actor: 'operator', action: 'fiat_wallet.added', target: currency, details: { id, currency, country } });
        return { id, currency, country };
      });
    },

    async list(auth: Auth): Promise<FiatWallet[]> {
      if (!(await repo.fiatWalletsEnabled(auth.partnerId))) return [];
      const [balances, stored] = await Promise.all([ledger.balances(auth.partnerId), repo.list(auth.partnerId)]);
      const balance = (currency: string) => String(balances.find((a) => a.currency === currency)?.available ?? '0');
      const usd = { ...DEFAULT_FIAT_WALLET, paymentEnabled: true, collectionEnabled: true, balance: balance(DEFAULT_FIAT_WALLET.currency) };
      return [usd, ...stored.map((w) => toWallet(w, balance(w.currency)))];
    },

    async update(auth: Auth, input: UpdateFiatWalletRequest): Promise<FiatWallet> {
      requireCan(auth, 'manageFiatWallets');
      if (!(await repo.fiatWalletsEnabled(auth.partnerId))) throw disabled();
      if (input.id === DEFAULT_FIAT_WALLET.id) throw badRequest(FIAT_WALLET_MESSAGES.defaultFixed);
      const changes = {
        ...(input.paymentEnabled !== undefined ? { payment_enabled: input.paymentEnabled } : {}),
        ...(input.collectionEnabled !== undefined ? { collection_enabled: input.collectionEnabled } : {}),
      };
      const updated = await repo.transaction(async (trx) => {
        const before = await repo.lock(trx, auth.partnerId, input.id);
        if (!before) throw notFound(FIAT_WALLET_MESSAGES.notFound);
        const changed = Object.entries(changes).filter(([k, v]) => before[k as keyof typeof changes] !== v);
        if (changed.length > 0) {
          await repo.update(trx, auth.partnerId, input.id, changes, new Date(deps.now()));
          await auditChange(trx, {
            partnerId: auth.partnerId,
            actorUserId: auth.userId,
            actor: auth.email,
            action: 'fiat_wallet.updated',
            target: before.currency,
            details: Object.fromEntries(changed.map(([k, v]) => [k, { from: before[k as keyof typeof changes], to: v }])),
          });
        }
        const wallet = (await repo.one(trx, auth.partnerId, input.id))!;
        return toWallet(wallet, await ledger.balance(auth.partnerId, wallet.currency, trx));
      });
      return updated;
    },
  };
}

export type FiatWalletsService = ReturnType<typeof createFiatWalletsService>;
