import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NotificationList } from '@portal/contract/notifications';
import { securityEventTexts, securityHistoryCsv, type SecurityHistoryResponse } from '@portal/contract/security';
import type { StartResponse } from '@portal/contract/start';
import type { UserPreferences } from '@portal/contract/team';
import { DATABASES, setupSignedInOverSmtp, signIn, type Session, type TestContext } from './harness.ts';
import { mailText, type Sink } from './smtp-sink.ts';

// The French of these messages is the catalogue's own (packages/contract/src/messages-fr.ts).

const ADMIN = 'admin@acme.test';
const ADMIN2 = 'admin2@acme.test';
const TREASURY = 'treasury@acme.test';
const VIEWER = 'viewer@acme.test';
const FR = { 'accept-language': 'fr-CI,fr;q=0.9,en;q=0.5' };
const EN = { 'accept-language': 'en-GB' };

/** A received mail as its reader sees it: recipient, subject (encoded words undone) and text (transfer encoding undone). */
function readMail(m: { to: string[]; raw: string }) {
  const split = m.raw.indexOf('\r\n\r\n');
  const headers = m.raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'im').exec(headers)?.[1] ?? '';
  const subject = header('Subject')
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?UTF-8\?([QB])\?([^?]*)\?=/gi, (_, encoding: string, data: string) =>
      encoding.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64').toString('utf8')
        : Buffer.from(
            data.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_x, hex: string) => String.fromCharCode(parseInt(hex, 16))),
            'latin1',
          ).toString('utf8'),
    );
  const body = m.raw.slice(split + 4);
  const text = /base64/i.test(header('Content-Transfer-Encoding')) ? Buffer.from(body, 'base64').toString('utf8') : mailText(body);
  return { to: m.to[0]!, subject, text };
}

describe.each(DATABASES)('the server in the reader’s language on %s', (kind) => {
  let t: TestContext;
  let smtp: Sink;
  let s: Record<string, Session>;

  beforeAll(async () => {
    ({ t, s, smtp } = await setupSignedInOverSmtp(kind, [ADMIN, ADMIN2, TREASURY, VIEWER], { config: { PUBLIC_URL: 'https://portal.example' } }));
  });
  afterAll(async () => {
    await t?.close();
  });

  const as = (email: string, headers: Record<string, string> = {}) => ({ token: s[email]!.accessToken, headers });
  const get = (email: string, url: string, headers?: Record<string, string>) => s[email]!.browser.get(`/api/v1/${url}`, as(email, headers));
  const setLanguage = (email: string, language: string | null, headers?: Record<string, string>) =>
    s[email]!.browser.put('/api/v1/user/preferences', { language }, as(email, headers));
  /** The mails received from `from` on, once `count` of them are in. */
  async function mailsFrom(from: number, count: number) {
    await expect.poll(() => smtp.received.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(from + count);
    return smtp.received.slice(from).map(readMail);
  }
  const languageChanges = async (email: string) =>
    (await get(ADMIN, `security-history?kind=settings&person=${s[email]!.user.id}`))
      .json<SecurityHistoryResponse>()
      .items.filter((e) => e.action === 'user.language_changed');

  it('answers an error in the request’s language, its code unchanged; English without one of ours', async () => {
    const refused = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url: '/api/v1/user/preferences', headers });
    expect((await refused({})).json()).toMatchObject({ code: 'Unauthorized', message: 'Sign in to continue.' });
    expect((await refused(EN)).json()).toMatchObject({ code: 'Unauthorized', message: 'Sign in to continue.' });
    expect((await refused({ 'accept-language': 'de-DE, de;q=0.9' })).json()).toMatchObject({ code: 'Unauthorized', message: 'Sign in to continue.' });
    expect((await refused(FR)).json()).toMatchObject({ code: 'Unauthorized', message: 'Connectez-vous pour continuer.' });

    const nowhere = await t.app.inject({ method: 'GET', url: '/api/v1/nowhere?x=1', headers: FR });
    expect(nowhere.statusCode).toBe(404);
    expect(nowhere.json()).toMatchObject({ code: 'NotFound', message: 'Aucune route pour GET /api/v1/nowhere' });

    // a validation failure is put together issue by issue, each in the language
    const bad = await setLanguage(VIEWER, 'de', FR);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({
      code: 'ValidationFailed',
      message: 'Le champ «\u00a0Language\u00a0» doit avoir l’une des valeurs suivantes\u00a0: en, fr',
    });
    expect((await setLanguage(VIEWER, 'de')).json()).toMatchObject({ code: 'ValidationFailed', message: 'Language must be one of: en, fr' });
  });

  it('answers a confirmation in the request’s language', async () => {
    const other = await signIn(t, VIEWER);
    const out = await other.browser.post('/api/v1/users/logout', {}, { headers: FR });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ message: 'Déconnexion effectuée' });
    const again = await signIn(t, VIEWER);
    expect((await again.browser.post('/api/v1/users/logout', {})).json()).toEqual({ message: 'Signed out' });
  });

  it('saves a language, audited each time; another user’s stays; a language we do not have is refused and changes nothing', async () => {
    const french = await setLanguage(ADMIN, 'fr');
    expect(french.statusCode, french.body).toBe(200);
    expect(french.json<UserPreferences>().language).toBe('fr');
    expect((await get(ADMIN, 'user/preferences')).json<UserPreferences>().language).toBe('fr');
    expect((await get(TREASURY, 'user/preferences')).json<UserPreferences>().language).toBeNull();

    const none = await setLanguage(ADMIN, null);
    expect(none.statusCode).toBe(200);
    expect(none.json<UserPreferences>().language).toBeNull();
    // the same again changes nothing and writes nothing
    expect((await setLanguage(ADMIN, null)).statusCode).toBe(200);
    const changes = await languageChanges(ADMIN);
    expect(changes.map((e) => e.details)).toEqual([
      { from: 'fr', to: null },
      { from: null, to: 'fr' },
    ]);

    const refused = await setLanguage(ADMIN, 'de');
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ code: string }>().code).toBe('ValidationFailed');
    expect((await get(ADMIN, 'user/preferences')).json<UserPreferences>().language).toBeNull();
    expect(await languageChanges(ADMIN)).toHaveLength(2);
    expect(await languageChanges(TREASURY)).toEqual([]);
  });

  it('gives the security history as data in every language: a French reader reads it in French, its export stays English', async () => {
    const english = await get(ADMIN, 'security-history?kind=settings', EN);
    const french = await get(ADMIN, 'security-history?kind=settings', FR);
    expect(french.json()).toEqual(english.json());
    const items = french.json<SecurityHistoryResponse>().items.filter((e) => e.action === 'user.language_changed');
    expect(items.map((e) => securityEventTexts(e, 'fr').description)).toEqual(['Langue changée pour celle du navigateur', 'Langue changée\u00a0: Français']);
    expect(securityEventTexts(items[0]!, 'fr').kind).toBe('Paramètres');
    const csv = securityHistoryCsv(items);
    expect(csv).toContain('Settings,Changed the language to the browser’s');
    expect(csv).toContain('Settings,Changed the language to Français');
    expect(csv).not.toMatch(/Changement|Paramètres/);
  });

  it('e-mails a code in the user’s saved language, else in the language of the request that asked for it', async () => {
    expect((await setLanguage(VIEWER, 'fr')).statusCode).toBe(200);
    const sendCode = (email: string, headers: Record<string, string>) => s[email]!.browser.put('/api/v1/user/otp', {}, as(email, headers));

    let from = smtp.received.length;
    const saved = await sendCode(VIEWER, {});
    expect(saved.statusCode).toBe(200);
    // the answer is in the request's language (none here), the mail in the user's
    expect(saved.json()).toMatchObject({ message: `We sent a six-digit code to ${VIEWER}.` });
    const [toViewer] = await mailsFrom(from, 1);
    expect(toViewer).toMatchObject({ to: VIEWER, subject: 'Votre code de vérification du tableau de bord partenaire' });
    expect(toViewer!.text).toMatch(/^Bonjour Femi Adeyemi,\r?\n\r?\nVotre code de vérification est \d{6}\. Il est valable 10 minutes/);
    expect(toViewer!.text).toContain('votre compte\u00a0: changez votre mot de passe');

    from = smtp.received.length;
    const asked = await sendCode(ADMIN, FR);
    expect(asked.json()).toMatchObject({ message: `Nous avons envoyé un code à six chiffres à ${ADMIN}.`, sentTo: ADMIN });
    const [toAdmin] = await mailsFrom(from, 1);
    expect(toAdmin).toMatchObject({ to: ADMIN, subject: 'Votre code de vérification du tableau de bord partenaire' });
    expect(toAdmin!.text).toMatch(/Bonjour Ada Mensah,/);

    from = smtp.received.length;
    await sendCode(ADMIN, {});
    const [plain] = await mailsFrom(from, 1);
    expect(plain).toMatchObject({ to: ADMIN, subject: 'Your Partner Dashboard verification code' });
    expect(plain!.text).toMatch(/Hello Ada Mensah,/);
  });

  it('writes a notification in every language: each e-mail in its recipient’s, the bell in its reader’s', async () => {
    // the treasury user chose English; the other admin chose nothing; the change is asked for in French
    expect((await setLanguage(TREASURY, 'en')).statusCode).toBe(200);
    const from = smtp.received.length;
    const set = await s[ADMIN]!.browser.post('/api/v1/partner/low-balance-limit', { lowBalanceLimit: '987654321.50' }, as(ADMIN, FR));
    expect(set.statusCode, set.body).toBe(200);

    const mails = await mailsFrom(from, 3);
    const to = (email: string) => mails.find((m) => m.to === email);
    expect(to(ADMIN2)?.subject).toBe('Votre solde est passé sous votre seuil de solde bas (987\u202f654\u202f321,50\u00a0USD)');
    expect(to(ADMIN2)?.text).toContain('Bonjour Kwame Boateng,');
    expect(to(ADMIN2)?.text).toMatch(/Date\u00a0: \d{1,2} [a-zéû.]+ \d{4}, \d{2}:\d{2} UTC/);
    expect(to(ADMIN2)?.text).toContain('Pour le voir dans le portail\u00a0: https://portal.example/balance');
    expect(to(ADMIN2)?.text).toContain('https://portal.example/settings#notifications');
    expect(to(TREASURY)?.subject).toBe('Your balance is below your low balance limit (USD 987,654,321.50)');
    expect(to(TREASURY)?.text).toMatch(/When: [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{2}:\d{2} UTC/);

    // the bell: the page's language, whoever the reader
    const bell = async (email: string, headers: Record<string, string>) => (await get(email, 'notifications', headers)).json<NotificationList>().items[0]!;
    const french = await bell(TREASURY, FR);
    expect(french).toMatchObject({ topic: 'low-balance', title: 'Votre solde est passé sous votre seuil de solde bas (987\u202f654\u202f321,50\u00a0USD)' });
    expect(french.body).toContain('Rechargez-le pour continuer vos décaissements.');
    expect(await bell(TREASURY, EN)).toMatchObject({ title: 'Your balance is below your low balance limit (USD 987,654,321.50)' });
    expect(await bell(ADMIN2, {})).toMatchObject({ title: 'Your balance is below your low balance limit (USD 987,654,321.50)' });

    // the start data's bell is in the user's saved language, which the portal turns to, whatever the first request said
    expect((await setLanguage(ADMIN2, 'fr')).statusCode).toBe(200);
    const start = (await get(ADMIN2, 'partner/start', EN)).json<StartResponse>();
    expect(start.notifications?.items[0]?.title).toBe('Votre solde est passé sous votre seuil de solde bas (987\u202f654\u202f321,50\u00a0USD)');
  });
});
