import { ComingSoon } from './coming-soon.tsx';

/** Placeholders for screens that later changes build; each is its own lazily loaded module entry. */
export const AboutScreen = () => <ComingSoon title="About" />;
export const FiatWalletScreen = () => <ComingSoon title="Fiat wallet" />;
export const FiatWalletsScreen = () => <ComingSoon title="Fiat wallets" />;
export const CoverageScreen = () => <ComingSoon title="Coverage" />;
export const ApiKeysScreen = () => <ComingSoon title="API Keys" />;
export const WalletsScreen = () => <ComingSoon title="Wallet Management" />;
export const CountriesScreen = () => <ComingSoon title="Enabled Countries" />;
export const WebhooksScreen = () => <ComingSoon title="Webhooks" />;
