/** sortie's HTTP transport: fetch's contract on undici's `request()` (see fetch.ts). */
export { sdkFetch, transportFetch } from './fetch.ts';
export { REDIRECT_STATUSES } from './redirects.ts';
export { TransportResponse } from './response.ts';
export { errorCodes, TransportUnsupportedError } from './transport-errors.ts';
