import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorBody } from '@portal/contract/errors';
import { CreateReportRequest, ListReportsRequest, ListReportsResponse, ReportJobResponse } from '@portal/contract/transactions';
import { authOf } from '../../plugins/auth.ts';
import type { ReportsService } from './reports.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 410: ErrorBody, 429: ErrorBody };
const Params = z.object({ jobId: z.string().uuid() });

/** Report jobs (transaction-data §7): the caller's partner only. */
export const reportRoutes: FastifyPluginAsyncZod<{ service: ReportsService }> = async (app, { service }) => {
  app.addHook('onRequest', app.authenticate);

  app.post(
    '/report-jobs/create',
    {
      schema: {
        operationId: 'createReportJob',
        tags: ['reports'],
        summary: 'Request a report file (built in the background; 429 TooManyActiveReports while the partner has its limit queued or being built)',
        body: CreateReportRequest,
        response: { 200: ReportJobResponse, ...errors },
      },
    },
    async (request) => ({ job: await service.create(authOf(request), request.body) }),
  );

  app.post(
    '/report-jobs',
    {
      schema: {
        operationId: 'listReportJobs',
        tags: ['reports'],
        summary: 'Report jobs, newest first',
        body: ListReportsRequest,
        response: { 200: ListReportsResponse, ...errors },
      },
    },
    async (request) => service.list(authOf(request).partnerId, request.body.startIndex, request.body.size),
  );

  app.get(
    '/report-jobs/:jobId',
    { schema: { operationId: 'getReportJob', tags: ['reports'], summary: 'One report job', params: Params, response: { 200: ReportJobResponse, ...errors } } },
    async (request) => ({ job: await service.get(authOf(request).partnerId, request.params.jobId) }),
  );

  app.get(
    '/report-jobs/:jobId/download',
    { schema: { operationId: 'downloadReport', tags: ['reports'], summary: 'The CSV file of a complete report', params: Params } },
    async (request, reply) => {
      const { stream, filename } = await service.download(authOf(request).partnerId, request.params.jobId);
      return reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${filename}"`).send(stream);
    },
  );
};
