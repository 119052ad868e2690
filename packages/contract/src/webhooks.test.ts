import { describe, expect, it } from 'vitest';
import { SETTLEMENT_STATUSES, TRANSACTION_STATUSES } from './domain.ts';
import { CreateWebhookRequest, WEBHOOK_EVENT_TYPES, WebhookUrl, webhookEventType } from './webhooks.ts';

describe('webhook events and requests', () => {
  it('lists an event per transaction state for collections and payments, and per settlement state', () => {
    expect(WEBHOOK_EVENT_TYPES).toHaveLength(TRANSACTION_STATUSES.length * 2 + SETTLEMENT_STATUSES.length);
    expect(WEBHOOK_EVENT_TYPES).toEqual(
      expect.arrayContaining(['COLLECTION.COMPLETE', 'PAYMENT.FAILED', 'PAYMENT.PENDING_LIQUIDITY', 'SETTLEMENT.COMPLETE', 'SETTLEMENT.PROCESSING']),
    );
    expect(webhookEventType('SETTLEMENT', 'complete')).toBe('SETTLEMENT.COMPLETE');
    expect(() => webhookEventType('SETTLEMENT', 'refunded')).toThrow();
  });

  it('takes http(s) URLs only, without a fragment', () => {
    expect(WebhookUrl.parse(' https://hooks.example.com/portal?x=1 ')).toBe('https://hooks.example.com/portal?x=1');
    for (const bad of ['ftp://example.com', 'example.com/hook', 'https://example.com/#x', 'javascript:alert(1)', `https://example.com/${'a'.repeat(2048)}`]) {
      expect(WebhookUrl.safeParse(bad).success, bad).toBe(false);
    }
  });

  it('needs at least one known event and the six-digit code, and drops repeated events', () => {
    const ok = CreateWebhookRequest.parse({ url: 'https://example.com/h', events: ['PAYMENT.FAILED', 'PAYMENT.FAILED'], otp: '123456' });
    expect(ok.events).toEqual(['PAYMENT.FAILED']);
    expect(CreateWebhookRequest.safeParse({ url: 'https://example.com/h', events: [], otp: '123456' }).success).toBe(false);
    expect(CreateWebhookRequest.safeParse({ url: 'https://example.com/h', events: ['PAYMENT.DONE'], otp: '123456' }).success).toBe(false);
    expect(CreateWebhookRequest.safeParse({ url: 'https://example.com/h', events: ['PAYMENT.FAILED'], otp: '12345' }).success).toBe(false);
  });
});
