import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

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
  /** set on a test partner: the partner whose test side it is (0044); null on every live partner */
  live_partner_id: ColumnType<string | null, string | null | undefined, string | null>;
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
  password_reset_requested: Generated<boolean>;
  totp_secret_enc: string | null;
  totp_last_step: number | null;
  /** the last completed sign-in (0015) */
  last_sign_in_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** the zone the user reads the portal in; null is UTC (0028) */
  time_zone: ColumnType<string | null, string | null | undefined, string | null>;
  /** the language the user reads the portal and its e-mails in; null: not chosen, the browser's (0037) */
  language: ColumnType<string | null, string | null | undefined, string | null>;
  /** the screen the portal opens on after sign-in; null is the transactions (0042) */
  start_screen: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
};

/** An invitation to the team (0034): a one-time link, kept apart from users until it is used. */
export type InvitationsTable = {
  partner_id: string;
  id: string;
  name: string;
  email: string;
  role: string;
  /** sha256 of the link's token (`<partner id>.<random>`); null for an invitation that never had a link (it must be resent) */
  token_hash: string | null;
  expires_at: Date;
  invited_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};

/** A partner's local-currency wallet (0014); the default USD wallet is not stored. */
export type FiatWalletsTable = {
  partner_id: string;
  id: Generated<number>;
  currency: string;
  country: string;
  payment_enabled: Generated<boolean>;
  collection_enabled: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
};

export type CurrencyAccountsTable = {
  partner_id: string;
  currency: string;
  created_at: Timestamp;
  /** the sum of the account's ledger entries, kept by the database with each entry (migration 0039) */
  balance: Generated<string>;
  /** the debits of withdrawals still pending or processing, kept the same way */
  pending_withdrawals: Generated<string>;
  /** the debits (amount and fee) of disbursements not yet final, kept the same way */
  pending_disbursements: Generated<string>;
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

export type ReconciliationRunsTable = {
  id: Generated<string>;
  ran_at: Timestamp;
  accounts_checked: number;
  differing_accounts: Json<Record<string, string>[]>;
  unmatched_withdrawals: Json<Record<string, string | number>[]>;
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
  /** the browser (User-Agent) of the request that wrote it, where it matters (sign-ins and their failures) */
  user_agent: string | null;
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
  /** delivered by the mail relay after the change that wrote it commits (0029) */
  deferred: Generated<boolean>;
  attempts: Generated<number>;
  next_attempt_at: Timestamp | null;
  claimed_at: Timestamp | null;
};

/** A user's earlier password hashes (0033): a new password must differ from them and from the current one. */
export type PasswordHistoryTable = {
  partner_id: string;
  user_id: string;
  id: Generated<number>;
  password_hash: string;
  created_at: Timestamp;
};

/** One per recipient of a change (0029). */
export type NotificationsTable = {
  partner_id: string;
  id: Generated<string>;
  user_id: string;
  topic: string;
  title: string;
  body: string;
  /** the title and body in the other languages, by language; null: written before there were others (0038) */
  texts: ColumnType<Partial<Record<string, { title: string; body: string }>> | null, string | null | undefined, string | null>;
  link: string;
  created_at: Timestamp;
  read_at: Timestamp | null;
};

/** A user's e-mail choice for a topic; no row means e-mail on (0029). */
export type NotificationPreferencesTable = {
  partner_id: string;
  user_id: string;
  topic: string;
  email: boolean;
  updated_at: Timestamp;
};

/** The low balance alert's last state per account: each crossing is told once (0029). */
export type LowBalanceAlertsTable = {
  partner_id: string;
  currency: string;
  state: string;
  changed_at: Timestamp;
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
  /** the token that replaced this one, encrypted, kept for the reuse window (two tabs refreshing at once) */
  successor_enc: string | null;
  created_at: Timestamp;
};

/** A user's passkey (0036): a WebAuthn credential, its public key and its use counter. */
export type PasskeysTable = {
  partner_id: string;
  id: Generated<string>;
  user_id: string;
  credential_id: string;
  public_key: Buffer;
  /** bigint: read as a string */
  counter: ColumnType<string, string | number, string | number>;
  transports: ColumnType<string[], string[] | undefined, string[]>;
  synced: boolean;
  name: string;
  user_agent: string | null;
  /** set when its counter went back (a copied authenticator): it signs in no more */
  disabled_at: Timestamp | null;
  last_used_at: Timestamp | null;
  created_at: Timestamp;
};

/** A challenge given to a browser for a passkey ceremony (0036): adding one (a user's), or signing in (no one's yet). */
export type PasskeyCeremoniesTable = {
  id: Generated<string>;
  purpose: 'add' | 'sign-in';
  partner_id: string | null;
  user_id: string | null;
  challenge: string;
  expires_at: Date;
  created_at: Timestamp;
};

/** A signed-in session: its id is the refresh-token family and the access token's `sid` claim. */
export type AuthSessionsTable = {
  partner_id: string;
  id: string;
  user_id: string;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
  /** why it ended (a SessionEndReason other than 'expired'); null while open */
  ended_reason: string | null;
  /** the browser (User-Agent) and address it was opened from */
  user_agent: string | null;
  ip: string | null;
  /** its sign-in, then each refresh of its access token */
  last_seen_at: Timestamp;
  created_at: Timestamp;
};

/** Sign-in failures per e-mail (sha256 of it), known or not. */
export type SignInThrottleTable = {
  key: string;
  failures: Generated<number>;
  locked_until: Timestamp | null;
  updated_at: Timestamp;
};

/** Fixed-window request counters shared by every server instance. */
export type RateLimitCountersTable = {
  key: string;
  hits: number;
  window_ends: Timestamp;
};

/** The live e-mailed code of a user (hash only). */
export type EmailOtpsTable = {
  partner_id: string;
  user_id: string;
  code_hash: string;
  attempts: Generated<number>;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: Timestamp;
  /** the change and target the code confirms (otp module); null: not bound */
  purpose: string | null;
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
  /** demo (random, key thrown away: demo only) | xpub (derived from an operator key) | pool (imported) */
  source: string;
  derivation_key: string | null;
  derivation_index: number | null;
};

export type DepositDerivationCountersTable = {
  derivation_key: string;
  next_index: number;
};

export type DepositAddressPoolTable = {
  id: Generated<number>;
  network: string;
  address: string;
  tag: string | null;
  imported_at: Timestamp;
  partner_id: string | null;
  assigned_at: Date | null;
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
  /** the payment network (mobile-money operator or bank) it went through; none on rows older than migration 0041 */
  operator: string | null;
  completed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  failure_reason: string | null;
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

/** Collections and disbursements a partner initiated (0023): the order, its quote and its sandbox outcome. */
export type PaymentOrdersTable = {
  partner_id: string;
  id: string;
  kind: string;
  status: string;
  outcome: string;
  sequence_id: string;
  fingerprint: string;
  country: string;
  currency: string;
  amount: Money;
  rate: Money;
  amount_usd: Money;
  fee_usd: Money;
  channel_id: string;
  channel_type: string;
  payment_method: string;
  network_id: string | null;
  network_name: string | null;
  account_number: string | null;
  account_type: string | null;
  counterparty_name: string;
  reference: string;
  source: string;
  instructions: ColumnType<unknown, string | null, string | null>;
  failure_reason: string | null;
  created_by: string;
  created_at: Timestamp;
  updated_at: Timestamp;
};

export type PaymentOrderEventsTable = { partner_id: string; order_id: string; status: string; at: Timestamp; seq: Generated<number> };

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
  /** the zone the report was requested in (0028) */
  time_zone: Generated<string>;
  total_pages: Generated<number>;
  processed_pages: Generated<number>;
  row_count: number | null;
  file_key: string | null;
  error: string | null;
  expires_at: Timestamp | null;
  /** the job's place in its partner's line when queued: 0 when the partner had nothing else being prepared */
  queue_rank: Generated<number>;
  /** the queue's job that builds it */
  queue_job_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};

/** One row: check values of the keys the database was created with (0010-key-check). */
export type KeyCheckTable = {
  id: Generated<number>;
  jwt_secret_check: string;
  encryption_key_check: string;
  created_at: Generated<Date>;
};

/** Webhook endpoints (0018): the signing secret encrypted with ENCRYPTION_KEY. */
export type WebhookEndpointsTable = {
  partner_id: string;
  id: string;
  url: string;
  description: string | null;
  events: string[];
  secret_encrypted: string;
  /** 0032: the secret before the last roll, and when it stops signing */
  previous_secret_encrypted: Generated<string | null>;
  previous_secret_expires_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  active: Generated<boolean>;
  state: Generated<string>;
  failing_since: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};

/** The webhook outbox (0018): one row per announced change. */
export type WebhookEventsTable = {
  partner_id: string;
  id: string;
  type: string;
  data: Json<Record<string, unknown>>;
  dedupe_key: string | null;
  created_at: Timestamp;
};

/** An event's delivery to one endpoint (0018); job_id null: waiting for the relay to queue it. */
export type WebhookDeliveriesTable = {
  partner_id: string;
  id: string;
  event_id: string;
  endpoint_id: string;
  status: Generated<string>;
  manual: Generated<boolean>;
  retry_step: Generated<number>;
  attempt_count: Generated<number>;
  next_attempt_at: Timestamp | null;
  job_id: string | null;
  note: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};

export type WebhookAttemptsTable = {
  partner_id: string;
  delivery_id: string;
  n: number;
  attempted_at: Timestamp;
  status_code: number | null;
  duration_ms: number;
  response_snippet: string | null;
  error: string | null;
  trigger: string;
};

/** A partner's settlement wallet (0012): withdrawals go to it once reviewed, screened and enabled. */
export type SettlementWalletsTable = {
  partner_id: string;
  id: string;
  address: string;
  network: string;
  tag: string | null;
  currencies: string[];
  status: string;
  travel_rule_name: string | null;
  travel_rule_registration_number: string | null;
  created_by: string;
  created_by_name: string;
  reviewed_by: string | null;
  reviewed_by_name: string | null;
  reviewed_at: Timestamp | null;
  denial_reason: string | null;
  deletion_reason: string | null;
  deleted_by: string | null;
  deleted_at: Timestamp | null;
  screened_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};

/** The partner an address belongs to, for good (0012). */
export type WalletAddressOwnersTable = {
  address_key: string;
  partner_id: string;
  created_at: Timestamp;
};

/** A withdrawal request by its sequenceId (0013); its settlement is a row of `settlements`. */
export type SettlementRequestsTable = {
  partner_id: string;
  sequence_id: string;
  settlement_id: string;
  fingerprint: string;
  wallet_id: string;
  requested_by: string;
  amount: Money;
  currency: string;
  fee_amount: Money;
  wallet_tag: string | null;
  travel_rule_name: string | null;
  travel_rule_registration_number: string | null;
  failure_reason: string | null;
  created_at: Timestamp;
};

/** Global reference: a currency's buy and sell rate against USD (locale: the country, or 'crypto'). */
export type PlatformRatesTable = {
  id: string;
  locale: string;
  code: string;
  buy: Numeric;
  sell: Numeric;
  updated_at: Timestamp;
};

/** A partner's status for a platform rate (an enabled country), with the pending change and who asked for it. */
export type PartnerRatesTable = {
  partner_id: string;
  id: string;
  platform_rate_id: string;
  status: string;
  requested_by: string | null;
  requested_at: Date | null;
  reviewed_by: string | null;
  reviewed_at: Date | null;
  updated_at: Timestamp;
};

/** Global reference: one way money comes into or goes out of a country. */
export type ChannelsTable = {
  id: string;
  vendor_id: string;
  ramp_type: string;
  channel_type: string;
  country: string;
  currency: string;
  status: string;
  commercial_status: string;
  fee_usd: Numeric;
  fee_local: Numeric;
  min: Numeric;
  max: Numeric;
  success_threshold: Numeric;
  estimated_settlement_time: number;
  settlement_type: string;
  widget_status: string;
  api_status: string;
  widget_min: Numeric;
  widget_max: Numeric;
  updated_at: Timestamp;
};

/** Global reference: a mobile-money operator or bank of a country, reached through channels. */
export type PaymentNetworksTable = {
  id: string;
  code: string;
  name: string;
  country: string;
  status: string;
  channel_ids: string[];
  account_number_type: string;
  feature_flag_enabled: boolean;
  temp_disabled_for: string[];
  updated_at: Timestamp;
};

/** A partner's API key (0016): the secret encrypted with ENCRYPTION_KEY; after a roll the previous one may still work. */
export type ApiKeysTable = {
  partner_id: string;
  id: Generated<string>;
  api_key: string;
  public_key: string;
  name: string;
  permissions: string[];
  status: Generated<string>;
  secret_enc: string;
  secret_hint: string;
  previous_secret_enc: string | null;
  previous_secret_expires_at: Timestamp | null;
  expires_at: Timestamp | null;
  last_used_at: Timestamp | null;
  created_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};

/** The first reply to an Idempotency-Key (0016); status_code is null while that first request runs. */
export type IdempotencyKeysTable = {
  partner_id: string;
  key: string;
  fingerprint: string;
  claim_token: string;
  status_code: number | null;
  response_body: string | null;
  content_type: string | null;
  locked_until: Timestamp;
  expires_at: Timestamp;
  created_at: Timestamp;
};

/** A partner's allowed IP address or CIDR range for API-key calls (0017). */
export type AllowedIpAddressesTable = {
  partner_id: string;
  ip_address: string;
  created_by: string | null;
  created_by_email: string | null;
  created_at: Timestamp;
  /** which server it is, as the partner names it (0030) */
  label: Generated<string | null>;
};

/** The live event stream's log (0026): what a reconnecting stream is sent again. */
export interface LiveEventsTable {
  partner_id: string;
  /** bigint identity, as a number (int8 parser) */
  id: Generated<number>;
  payload: Json<unknown>;
  created_at: Generated<Date>;
}

export type DB = {
  live_events: LiveEventsTable;
  api_keys: ApiKeysTable;
  idempotency_keys: IdempotencyKeysTable;
  allowed_ip_addresses: AllowedIpAddressesTable;
  settlement_wallets: SettlementWalletsTable;
  wallet_address_owners: WalletAddressOwnersTable;
  settlement_requests: SettlementRequestsTable;
  platform_rates: PlatformRatesTable;
  partner_rates: PartnerRatesTable;
  channels: ChannelsTable;
  payment_networks: PaymentNetworksTable;
  key_check: KeyCheckTable;
  report_jobs: ReportJobsTable;
  collections: CollectionsTable;
  payments: CollectionsTable;
  settlements: SettlementsTable;
  fees: FeesTable;
  trades: TradesTable;
  initiated_payments: InitiatedPaymentsTable;
  payment_orders: PaymentOrdersTable;
  payment_order_events: PaymentOrderEventsTable;
  payout_configs: PayoutConfigsTable;
  deposit_addresses: DepositAddressesTable;
  deposit_derivation_counters: DepositDerivationCountersTable;
  deposit_address_pool: DepositAddressPoolTable;
  auth_challenges: AuthChallengesTable;
  refresh_tokens: RefreshTokensTable;
  auth_sessions: AuthSessionsTable;
  passkeys: PasskeysTable;
  passkey_ceremonies: PasskeyCeremoniesTable;
  sign_in_throttle: SignInThrottleTable;
  rate_limit_counters: RateLimitCountersTable;
  email_otps: EmailOtpsTable;
  recovery_codes: RecoveryCodesTable;
  password_reset_codes: PasswordResetCodesTable;
  partners: PartnersTable;
  users: UsersTable;
  invitations: InvitationsTable;
  fiat_wallets: FiatWalletsTable;
  currency_accounts: CurrencyAccountsTable;
  ledger_entries: LedgerEntriesTable;
  reconciliation_runs: ReconciliationRunsTable;
  audit_events: AuditEventsTable;
  mail_outbox: MailOutboxTable;
  notifications: NotificationsTable;
  password_history: PasswordHistoryTable;
  notification_preferences: NotificationPreferencesTable;
  low_balance_alerts: LowBalanceAlertsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
};

export type PartnerRow = Selectable<PartnersTable>;
export type NewPartner = Insertable<PartnersTable>;
export type UserRow = Selectable<UsersTable>;
