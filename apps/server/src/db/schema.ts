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

export type DB = {
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
