import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Email } from '@portal/contract/auth';
import { CalendarDate } from '@portal/contract/validation';
import { registerErrorHandler } from '../src/plugins/error-handler.ts';
import { fieldLabel } from '../src/plugins/validation-message.ts';

/** Validation failures name the field in words, never by the schema's path (issue: "body.email: ..."). */
describe('validation messages', () => {
  const app = Fastify();
  beforeAll(async () => {
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    registerErrorHandler(app);
    const body = z.strictObject({
      email: Email.optional(),
      name: z.string().min(1).optional(),
      amount: z.string().optional(),
      count: z.number().int().min(1).max(10).optional(),
      role: z.enum(['admin', 'treasury', 'view']).optional(),
      range: z.object({ startDate: CalendarDate }).optional(),
      weeklyDays: z.array(z.enum(['Monday'])).optional(),
      ipAddress: z.string().max(5).optional(),
      note: z.object({ text: z.string() }).optional(),
    });
    app
      .withTypeProvider<ZodTypeProvider>()
      .post('/x', { schema: { body, querystring: z.object({ startIndex: z.coerce.number().int().min(0).optional() }) } }, async () => ({ ok: true }));
    await app.ready();
  });
  afterAll(() => app.close());

  const message = async (payload: unknown, url = '/x') => {
    const res = await app.inject({ method: 'POST', url, payload: payload as object });
    expect(res.statusCode).toBe(400);
    const json = res.json<{ code: string; message: string }>();
    expect(json.code).toBe('ValidationFailed');
    expect(json.message).not.toMatch(/body\.|querystring\./);
    return json.message;
  };

  it('puts a sentence of the schema after the field in words', async () => {
    expect(await message({ email: 'not-an-address' })).toBe('E-mail: Enter a valid e-mail address');
  });

  it('says zod’s own messages plainly', async () => {
    expect(await message({ name: '' })).toBe('Name must not be empty');
    expect(await message({ amount: 12 })).toBe('Amount must be a text');
    expect(await message({ count: 0 })).toBe('Count must be at least 1');
    expect(await message({ count: 11 })).toBe('Count must be at most 10');
    expect(await message({ role: 'owner' })).toBe('Role must be one of: admin, treasury, view');
    expect(await message({ stauts: 'x' })).toBe('The request has a field it does not know: stauts');
    expect(await message({ ipAddress: '1234567' })).toBe('IP address must be at most 5 characters long');
  });

  it('names nested fields and list items', async () => {
    expect(await message({ range: { startDate: '2026-02-30' } })).toBe('Range › start date must be a real date YYYY-MM-DD');
    expect(await message({ note: {} })).toBe('Note › text is required');
    expect(await message({ weeklyDays: ['Funday'] })).toBe('Days of the week › item 1 must be one of: Monday');
  });

  it('names query fields the same way', async () => {
    expect(await message({}, '/x?startIndex=-1')).toBe('Start index must be at least 0');
  });

  it('turns field names into words', () => {
    expect(fieldLabel(['idFilter'])).toBe('ID');
    expect(fieldLabel(['filters', 'status'])).toBe('Filters › status');
    expect(fieldLabel(['travelRuleInfo', 'businessRegistrationNumber'])).toBe('Travel rule info › business registration number');
  });
});
