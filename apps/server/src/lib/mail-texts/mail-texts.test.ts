import { describe, expect, it } from 'vitest';
import { countryNameIn } from '@portal/contract/countries';
import { coinText, moneyText, utcDateTime } from './format.ts';
import { MAIL_TEXTS, type MailTexts } from './index.ts';

const { en, fr } = MAIL_TEXTS;
const at = new Date('2026-11-16T01:44:00Z');
const actor = { name: 'Ada Mensah', email: 'admin@acme.test' };
const wallet = { coins: 'USDT', network: 'TRC20', address: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE' };

/** The shape of a catalogue: its keys, and each nested group's, in order. */
const shape = (texts: object): unknown =>
  Object.fromEntries(Object.entries(texts).map(([k, v]) => [k, typeof v === 'function' ? 'template' : shape(v as object)]));

/** Every template with data that takes each of its branches, so that each language's words are all seen. */
function everything(t: MailTexts): string[] {
  const mails = [
    t.otp({ name: 'Ada', code: '123456', minutes: 10, purpose: t.otpPurpose.ipAdd('203.0.113.7') }),
    t.otp({ name: 'Ada', code: '123456', minutes: 10, purpose: undefined }),
    t.passwordResetCode({ name: 'Ada', code: '123456', minutes: 15, publicUrl: 'https://portal.example' }),
    t.passwordResetByAdmin({ name: 'Ada', code: '123456', minutes: 15, publicUrl: 'https://portal.example', admin: 'boss@acme.test', first: true }),
    t.passwordResetByAdmin({ name: 'Ada', code: '123456', minutes: 15, publicUrl: 'https://portal.example', admin: 'boss@acme.test', first: false }),
    t.invitation({ name: 'Jo', partner: 'Acme', invitedBy: 'admin@acme.test', role: 'treasury', again: true, link: 'https://portal.example/x', expiresAt: at }),
    t.invitation({ name: 'Jo', partner: 'Kora', invitedBy: undefined, role: 'view', again: false, link: 'https://portal.example/x', expiresAt: at }),
    t.invitationHeldElsewhere({ name: 'Jo', partner: 'Acme', invitedBy: 'admin@acme.test', role: 'admin' }),
  ];
  const p = t.otpPurpose;
  const purposes = [
    p.walletAdd(wallet),
    p.walletEnable(wallet),
    p.walletDelete(wallet),
    p.ipChange('203.0.113.7', '203.0.113.8', 'office'),
    p.ipChange('203.0.113.7', '203.0.113.8', undefined),
    p.ipRelabel('203.0.113.7', ''),
    p.ipDelete('203.0.113.7'),
    p.webhookCreate('https://hooks.example'),
    p.webhookUpdate('https://hooks.example'),
    p.webhookDelete('https://hooks.example'),
    p.webhookRoll('https://hooks.example'),
    p.countries([{ enable: true, locale: 'CI', code: 'XOF' }]),
    p.passkeyAdd('Laptop'),
  ];
  const n = t.notices;
  const money = { requester: actor, amount: '1234.5', wallet };
  const balance = { partner: 'Acme', balance: '100', limit: '1234.5' };
  const notices = [
    n.withdrawalRequested({ ...money, coinAmount: '1230.12', coin: 'USDT' }),
    n.withdrawalCompleted({ ...money, requester: undefined, hash: '0xabc' }),
    n.withdrawalFailed({ ...money, reason: 'refused' }),
    n.lowBalanceBelow(balance),
    n.lowBalanceRecovered(balance),
    n.lowBalanceApproaching(balance),
    n.walletAdded({ actor, wallet }),
    n.walletApproved({ actor, wallet }),
    n.walletDenied({ actor, wallet, reason: 'unknown owner' }),
    n.walletEnabled({ wallet }),
    n.walletScreeningFailed({ wallet, reason: 'sanctioned' }),
    n.countryChangeRequested({ actor, partner: 'Acme', changes: [{ enable: false, locale: 'SN', code: 'XOF' }] }),
    n.countryChangeReviewed({ actor, decisions: [{ enable: true, locale: 'CI', code: 'XOF', approved: true }] }),
    n.ipAdded({ actor, ip: '203.0.113.7' }),
    n.ipRemoved({ actor, ip: '203.0.113.7' }),
    n.ipReplaced({ actor, ip: '203.0.113.7', newIp: '203.0.113.8' }),
    n.ipRelabelled({ actor, ip: '203.0.113.7' }),
    n.apiKeyChanged({ actor, change: 'rolled', name: 'Checkout', apiKey: 'pk_1' }),
    n.apiKeyChanged({ actor, change: 'something else', name: 'Checkout', apiKey: 'pk_1' }),
    n.webhookAdded({ actor, url: 'https://hooks.example', eventTypes: 3 }),
    n.webhookChanged({ actor, change: { url: 'https://a.example', newUrl: 'https://b.example', events: true, description: true, active: false } }),
    n.webhookSecretRolled({ actor, url: 'https://hooks.example', until: at }),
    n.webhookSecretRolled({ actor, url: 'https://hooks.example', until: null }),
    n.webhookDeleted({ actor, url: 'https://hooks.example' }),
    n.webhookFailing({ type: `payment.updated`, messageId: 'm1', url: 'https://hooks.example', retryable: true, attempts: 8, last: 'HTTP 500' }),
    n.webhookFailing({ type: `payment.updated`, messageId: 'm1', url: 'https://hooks.example', retryable: false, attempts: 1, last: 'HTTP 410' }),
  ];
  const wrapped = t.notificationMail({
    name: 'Ada',
    notice: notices[0]!,
    at,
    link: 'https://portal.example/balance',
    partner: 'Acme',
    topic: 'developers',
    settingsUrl: 's',
  });
  return [...mails, wrapped]
    .flatMap((m) => [m.subject, m.text])
    .concat(
      purposes,
      notices.flatMap((x) => [x.title, ...x.lines]),
    );
}

describe('the e-mail and notification texts', () => {
  it('have the same templates in every language', () => {
    expect(shape(fr)).toEqual(shape(en));
  });

  it('are written in each language, with no template left in English or half-filled', () => {
    const english = everything(en);
    const french = everything(fr);
    expect(french).toHaveLength(english.length);
    french.forEach((text, i) => {
      expect(text, `template ${i}`).not.toBe(english[i]);
      expect(text).not.toMatch(/undefined|null|\[object/);
    });
    expect(english.join('\n')).not.toMatch(/undefined|null|\[object/);
  });

  it('writes amounts, times and countries in the language’s form', () => {
    expect(moneyText('1234.5', 'USD', 'en')).toBe('USD 1,234.50');
    expect(moneyText('1234.5', 'USD', 'fr')).toBe('1\u202f234,50\u00a0USD');
    expect(moneyText('-987654321', 'USD', 'fr')).toBe('-987\u202f654\u202f321,00\u00a0USD');
    expect(coinText('7957.123400', 'USDT', 'en')).toBe('7957.1234 USDT');
    expect(coinText('7957.123400', 'USDT', 'fr')).toBe('7\u202f957,1234\u00a0USDT');
    expect(utcDateTime(at, 'en')).toBe('Nov 16, 2026, 01:44 UTC');
    expect(utcDateTime(at, 'fr')).toBe('16 nov. 2026, 01:44 UTC');
    expect(countryNameIn('CI', 'en')).toBe("Côte d'Ivoire");
    expect(countryNameIn('CI', 'fr')).toBe('Côte d’Ivoire');
    expect(countryNameIn('XX', 'fr')).toBe('XX');
  });

  it('reads as before in English, and as French typesetting wants in French', () => {
    const notice = fr.notices.withdrawalFailed({ requester: actor, amount: '1234.5', wallet, reason: 'refusé' });
    expect(notice.title).toBe('Échec du retrait de 1\u202f234,50\u00a0USD');
    expect(notice.lines[1]).toBe('Rien n’a été envoyé\u202f; 1\u202f234,50\u00a0USD ont été remis sur votre solde.');
    expect(en.notices.withdrawalFailed({ requester: actor, amount: '1234.5', wallet, reason: 'refused' }).lines[0]).toBe(
      'The withdrawal of USD 1,234.50 to the USDT (TRC20) wallet address TQn9…bLSE, requested by Ada Mensah (admin@acme.test), failed: refused.',
    );
    const invitation = fr.invitation({ name: 'Jo', partner: 'Acme', invitedBy: undefined, role: 'admin', again: false, link: 'l', expiresAt: at });
    expect(invitation.subject).toBe('Invitation au tableau de bord partenaire d’Acme');
    expect(invitation.text).toContain('jusqu’au 16 nov. 2026, 01:44 UTC');
    expect(invitation.text).toContain('avec le rôle Administrateur');
  });
});
