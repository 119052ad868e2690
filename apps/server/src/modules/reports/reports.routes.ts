import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CreateReportRequest, ListReportsRequest, ListReportsResponse, ReportJobResponse } from '@portal/contract/transactions';
import { asAttachment } from '../../lib/attachment.ts';
import { authOf } from '../../plugins/auth.ts';
import { documentRoutes } from '../../plugins/route-docs.ts';
import type { ReportsService } from './reports.service.ts';

const Params = z.object({ jobId: z.string().uuid() });

/** Report jobs (transaction-data §7): the caller's partner only. */
export const reportRoutes: FastifyPluginAsyncZod<{ service: ReportsService }> = async (app, { service }) => {
  app.addHook('onRequest', app.authenticate);
  documentRoutes(app, { tag: 'reports', errors: [400, 401, 403, 404, 410, 429] });

  app.post(
    '/report-jobs/create',
    {
      config: { testData: true },
      schema: {
        operationId: 'createReportJob',
        summary: 'Request a report file (built in the background; 429 TooManyActiveReports while the partner has its limit queued or being built)',
        body: CreateReportRequest,
        response: { 200: ReportJobResponse },
      },
    },
    async (request) => ({ job: await service.create(authOf(request), request.body) }),
  );

  app.post(
    '/report-jobs',
    {
      config: { testData: true },
      schema: {
        operationId: 'listReportJobs',
        summary: 'Report jobs, newest first',
        body: ListReportsRequest,
        response: { 200: ListReportsResponse },
      },
    },
    async (request) => service.list(authOf(request).partnerId, request.body.startIndex, request.body.size),
  );

  app.get(
    '/report-jobs/:jobId',
    { config: { testData: true }, schema: { operationId: 'getReportJob', summary: 'One report job', params: Params, response: { 200: ReportJobResponse } } },
    async (request) => ({ job: await service.get(authOf(request).partnerId, request.params.jobId) }),
  );

  app.get(
    '/report-jobs/:jobId/download',
    { config: { testData: true }, schema: { operationId: 'downloadReport', summary: 'The CSV file of a complete report', params: Params } },
    async (request, reply) => {
      const { stream, filename } = await service.download(authOf(request).partnerId, request.params.jobId);
      return asAttachment(reply, 'text/csv; charset=utf-8', filename).send(stream);
    },
  );
};
