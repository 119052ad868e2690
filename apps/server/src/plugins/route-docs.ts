import { ErrorBody } from '@portal/contract/errors';
import type { App } from '../types/app.ts';

/** A status a route refuses with, answered as ErrorBody, the one shape of every error (plugins/error-handler.ts). */
type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 410 | 423 | 429;

/**
 * What the routes of one routes plugin share in their schemas, said once where the plugin starts: the tag the API
 * documentation lists their operations under, and the error statuses they may answer, each with ErrorBody. An onRoute
 * hook of the plugin, so it reaches that plugin's routes only (Fastify's encapsulation), each as it is declared: before
 * @fastify/swagger reads the routes and before their response schemas are compiled.
 *
 * The errors join a route's own response schema, which lists what the route answers besides (its successes, an error
 * only it gives: `409: ErrorBody`). A route with no response schema (a file sent as it is) gets none, nor one whose
 * config says `moduleErrors: false`.
 */
export function documentRoutes(app: App, { tag, errors }: { tag: string; errors: readonly ErrorStatus[] }): void {
  const errorResponses = Object.fromEntries(errors.map((status) => [status, ErrorBody]));
  app.addHook('onRoute', (route) => {
    const { response, ...schema } = route.schema ?? {};
    const withErrors = response !== undefined && route.config?.moduleErrors !== false;
    route.schema = { ...schema, tags: [tag], ...(response === undefined ? {} : { response: withErrors ? { ...errorResponses, ...response } : response }) };
  });
}
