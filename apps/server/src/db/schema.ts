import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/** Row types of the tables, kept by hand next to the migrations that make them. */

/** timestamptz with a default: optional on insert */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
/** numeric: read as a decimal string, written as a decimal string. */
type Numeric = ColumnType<string, string, string>;
type Json<T> = ColumnType<T, string, string>;

export type PartnersTable = {
  id: string;
  name: string;
  abbreviation: string;
  product_types: string[];
  whitelisted: Generated<boolean>;
  fiat_wallets_enabled: Generated<boolean>;
  feature_flags: Json<Record<string, boolean>>;
  wallet_address: string | null;
  withdrawal_address: string | null;
  settlement_threshold: Numeric | null;
  low_balance_limit: Numeric | null;
  payout_type: Generated<string>;
  payout_frequency: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};

export type UsersTable = {
  partner_id: string;
  id: string;
  name: string;
  email: string;
  role: string;
  status: string;
  password_hash: string | null;
  /** set while an invitation or an admin's reset asks for a new password */
  temp_password_hash: string | null;
  password_reset_requested: Generated<boolean>;
  totp_secret_enc: string | null;
  totp_last_step: number | null;
  failed_logins: Generated<number>;
  locked_until: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};

export type CurrencyAccountsTable = {
  partner_id: string;
  currency: string;
  created_at: Timestamp;
};

export type LedgerEntriesTable = {
  partner_id: string;
  id: Generated<string>;
  currency: string;
  amount: Numeric;
  kind: string;
  reference: string;
  created_at: Timestamp;
};

export type AuditEventsTable = {
  partner_id: string;
  id: Generated<string>;
  actor_user_id: string | null;
  actor: string;
  action: string;
  target: string | null;
  details: Json<Record<string, unknown>>;
  ip: string | null;
  created_at: Timestamp;
};

export type MailOutboxTable = {
  id: Generated<string>;
  to_address: string;
  subject: string;
  text_body: string;
  status: string;
  error: string | null;
  created_at: Timestamp;
  sent_at: Timestamp | null;
};

export type AuthChallengesTable = {
  partner_id: string;
  id: Generated<string>;
  user_id: string;
  session_hash: string;
  challenge_name: string;
  mfa_secret_enc: string | null;
  attempts: Generated<number>;
  expires_at: Timestamp;
  created_at: Timestamp;
};

export type RefreshTokensTable = {
  partner_id: string;
  id: string;
  user_id: string;
  family_id: string;
  token_hash: string;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  revoked_at: Timestamp | null;
  created_at: Timestamp;
};

export type RecoveryCodesTable = {
  partner_id: string;
  user_id: string;
  code_hash: string;
  used_at: Timestamp | null;
  created_at: Timestamp;
};

export type PasswordResetCodesTable = {
  partner_id: string;
  user_id: string;
  code_hash: string;
  attempts: Generated<number>;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: Timestamp;
};

export type PayoutConfigsTable = {
  partner_id: string;
  config: Json<Record<string, unknown>>;
  updated_by: string | null;
  updated_at: Timestamp;
};

export type DepositAddressesTable = {
  partner_id: string;
  id: Generated<string>;
  currency_network: string;
  cryptocurrency: string;
  network: string;
  address: string;
  tag: string | null;
  status: Generated<string>;
  created_at: Timestamp;
};

type Money = ColumnType<string, string, string>;

/** collections and payments share their columns (transaction-data §3: a payment is a collection's mirror). */
export type CollectionsTable = {
  partner_id: string;
  id: string;
  created_at: Timestamp;
  status: string;
  country: string;
  currency: string;
  amount: Money;
  converted_amount: Money;
  rate: Money;
  payment_method: string;
  request_source: string;
  fiat_wallet: string | null;
  sequence_id: string;
  session_id: string | null;
  account_number: string;
  account_type: string;
  counterparty_name: string;
};

export type SettlementsTable = {
  partner_id: string;
  id: string;
  created_at: Timestamp;
  status: string;
  type: string;
  transaction_hash: string | null;
  internal_wallet_address: string;
  external_wallet_address: string;
  crypto_currency: string;
  crypto_amount: Money;
  network: string;
  crypto_rate: Money;
  fiat_amount_usd: Money;
  wallet_balance_usd: Money;
  fiat_amount: Money | null;
  fiat_rate: Money | null;
  fiat_wallet: string | null;
  sequence_id: string;
};

export type FeesTable = {
  partner_id: string;
  id: string;
  created_at: Timestamp;
  transaction_id: string;
  transaction_type: string;
  payment_method: string;
  amount_usd: Money;
  fiat_wallet: string | null;
};

export type TradesTable = {
  partner_id: string;
  id: string;
  created_at: Timestamp;
  trade_id: string;
  trade_locked_date: Timestamp;
  status: string;
  country: string;
  fiat_currency: string;
  crypto_currency: string;
  network: string;
  trade_type: string;
  crypto_transaction_type: string;
  effective_rate: Money;
  quoted_rate: Money;
  fee: Money;
  crypto_amount: Money;
  fiat_amount: Money;
  crypto_bought: Money;
  crypto_sold: Money;
  fiat_sold: Money;
  fiat_bought: Money;
  fiat_wallet: string | null;
};

export type InitiatedPaymentsTable = {
  partner_id: string;
  id: string;
  created_at: Timestamp;
  status: string;
  country: string;
  local_currency: string;
  amount: Money;
  amount_usd: Money;
  payment_method: string;
  recipient_name: string;
  account_number: string;
  reference: string;
  fiat_wallet: string | null;
};

export type ReportJobsTable = {
  partner_id: string;
  id: string;
  status: string;
  requested_by_id: string;
  requested_by_email: string;
  data_source: string;
  start_date: ColumnType<string, string, string>;
  end_date: ColumnType<string, string, string>;
  filters: Json<Record<string, string>>;
  fiat_wallet: string;
  total_pages: Generated<number>;
  processed_pages: Generated<number>;
  row_count: number | null;
  file_key: string | null;
  error: string | null;
  expires_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};

export type DB = {
  report_jobs: ReportJobsTable;
  collections: CollectionsTable;
  payments: CollectionsTable;
  settlements: SettlementsTable;
  fees: FeesTable;
  trades: TradesTable;
  initiated_payments: InitiatedPaymentsTable;
  payout_configs: PayoutConfigsTable;
  deposit_addresses: DepositAddressesTable;
  auth_challenges: AuthChallengesTable;
  refresh_tokens: RefreshTokensTable;
  recovery_codes: RecoveryCodesTable;
  password_reset_codes: PasswordResetCodesTable;
  partners: PartnersTable;
  users: UsersTable;
  currency_accounts: CurrencyAccountsTable;
  ledger_entries: LedgerEntriesTable;
  audit_events: AuditEventsTable;
  mail_outbox: MailOutboxTable;
};

export type PartnerRow = Selectable<PartnersTable>;
export type NewPartner = Insertable<PartnersTable>;
export type PartnerUpdate = Updateable<PartnersTable>;
export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
