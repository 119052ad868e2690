import type { ErrorBody, ErrorCode } from '@portal/contract/errors';

/** A failure the client caused or may see: its code and message go out as they are. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    /** more fields of the error body (`reason` of SessionEnded) */
    readonly extra: Pick<ErrorBody, 'reason'> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string, code: ErrorCode = 'BadRequest') => new AppError(400, code, message);
export const unauthorized = (message: string, code: ErrorCode = 'Unauthorized') => new AppError(401, code, message);
export const forbidden = (message: string, code: ErrorCode = 'Forbidden') => new AppError(403, code, message);
export const notFound = (message: string) => new AppError(404, 'NotFound', message);
export const conflict = (message: string) => new AppError(409, 'Conflict', message);
