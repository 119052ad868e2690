/** The one-time-code module's face: modules whose changes need an e-mailed code ask for `Pick<OtpService, ...>`. */
export { otpRoutes } from './otp.routes.ts';
export { createOtpService, type OtpChecks, type OtpService } from './otp.service.ts';
