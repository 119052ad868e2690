import fs from 'node:fs';
import path from 'node:path';
import { generateSync } from 'otplib';
import type { Page } from 'playwright-core';

export const DEMO_PASSWORD = 'Portal-demo-2026!';
export const SECRETS: Record<string, string> = {
  'admin@acme.test': 'BPQYTYLSBWY2M6TIWWORONCT33ILZDWS',
  'admin2@acme.test': 'ROT35LOQ3NI2YO2QWAZSXUSH6XZQLLQ7',
  'treasury@acme.test': 'YTDLDHNSDTMRK5X66MPBBKSJISJKKWPG',
  'viewer@acme.test': 'CIPWDNAADDSM4NZYOELNZ3ABUHMSACE5',
  'admin@kora.test': '6UD4DOF23PPMUIGKE53N4DXPBYX32HFC',
  'admin@baobab.test': '7YFDFQSND76ZSXODJEZJJK7FV3QHJKUP',
  'admin@lean.test': '3QL2XLSQMUJCIISK6WM7P2CV36HDSC4Z',
};

/** The authenticator code an app would show now for this secret. */
export const totp = (secret: string) => generateSync({ secret, epoch: Math.floor(Date.now() / 1000) });

export async function submitLogin(page: Page, baseUrl: string, email: string, password: string) {
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Signs a demo persona in through the screens, with a code computed from its secret. */
export async function signInAs(page: Page, baseUrl: string, email: string) {
  await submitLogin(page, baseUrl, email, DEMO_PASSWORD);
  await page.waitForURL('**/two-factor-authentication');
  await page.getByLabel('Authentication code').fill(totp(SECRETS[email]!));
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/two-factor'));
}

const SHOTS = path.resolve(import.meta.dirname, '../screenshots');

/** Desktop and 375 px wide screenshots of the current page, into e2e/screenshots. */
export async function screenshots(page: Page, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  const size = page.viewportSize() ?? { width: 1280, height: 800 };
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: path.join(SHOTS, `${name}-desktop.png`), fullPage: true });
  await page.setViewportSize({ width: 375, height: 740 });
  await page.screenshot({ path: path.join(SHOTS, `${name}-mobile.png`), fullPage: true });
  await page.setViewportSize(size);
}
