/** Settings the server writes into the page (meta portal-config), with the spec's defaults. */
export type PortalConfig = {
  idleWarningSeconds: number;
  idleLogoutSeconds: number;
  supportEmail: string;
  /** the largest single withdrawal, in USD (a decimal string) */
  withdrawalMaxUsd: string;
};

const DEFAULTS: PortalConfig = {
  idleWarningSeconds: 300,
  idleLogoutSeconds: 10,
  supportEmail: 'support@partner-dashboard.example',
  withdrawalMaxUsd: '250000.00',
};

export function portalConfig(): PortalConfig {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="portal-config"]');
  if (!meta?.content) return DEFAULTS;
  try {
    return { ...DEFAULTS, ...(JSON.parse(meta.content) as Partial<PortalConfig>) };
  } catch {
    return DEFAULTS;
  }
}
