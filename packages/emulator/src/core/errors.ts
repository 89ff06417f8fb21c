/**
 * OCI service errors. Every failure a client can cause is one of these: the HTTP layer renders
 * it as OCI does (status code, `{"code","message"}` body, `opc-request-id` header), so the
 * official SDKs surface it as `OciError` with the same `statusCode` and `serviceCode`.
 *
 * One factory per OCI error code; services throw them, nothing else builds error bodies.
 * Codes and statuses follow OCI's "API Errors" page.
 */
export class OciServiceError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'OciServiceError';
  }

  toBody(): { code: string; message: string } {
    return { code: this.code, message: this.message };
  }
}

export const errors = {
  /** 400: a value is malformed or not allowed (bad enum, bad OCID, out of range). */
  invalidParameter: (message: string) => new OciServiceError(400, 'InvalidParameter', message),
  /** 400: a required field, query parameter or header is absent. */
  missingParameter: (name: string) =>
    new OciServiceError(400, 'MissingParameter', `Missing required parameter '${name}'.`),
  /** 400: the body is not valid JSON (or not a JSON object). */
  cannotParseRequest: (message = 'The request body could not be parsed as JSON.') =>
    new OciServiceError(400, 'CannotParseRequest', message),
  /** 400: an id given in the request body does not exist (ids in the path answer 404 instead). */
  relatedResourceNotFound: (field: string, id: string) =>
    new OciServiceError(
      400,
      'RelatedResourceNotAuthorizedOrNotFound',
      `The resource '${id}' given in '${field}' was not found or you are not authorized to use it.`,
    ),
  /** 400: a service limit would be exceeded. */
  limitExceeded: (message: string) => new OciServiceError(400, 'LimitExceeded', message),
  /** 401: the request is not signed, or its signature cannot be accepted. */
  notAuthenticated: (
    message = 'The required information to complete authentication was not provided or was incorrect.',
  ) => new OciServiceError(401, 'NotAuthenticated', message),
  /** 404: the id in the path does not exist (OCI does not tell "missing" from "forbidden"). */
  notAuthorizedOrNotFound: (what?: string) =>
    new OciServiceError(
      404,
      'NotAuthorizedOrNotFound',
      what
        ? `Authorization failed or requested resource not found: ${what}.`
        : 'Authorization failed or requested resource not found.',
    ),
  /** 404: no such route. */
  notFound: (message: string) => new OciServiceError(404, 'NotFound', message),
  /** 409: the resource's current lifecycle state forbids the operation (transient; SDKs retry it). */
  incorrectState: (message: string) => new OciServiceError(409, 'IncorrectState', message),
  /** 409: a lasting conflict (name taken, children remain); SDKs do not retry it. */
  conflict: (message: string) => new OciServiceError(409, 'Conflict', message),
  /** 409: an `opc-retry-token` was already used for a different request. */
  invalidatedRetryToken: (message: string) => new OciServiceError(409, 'InvalidatedRetryToken', message),
  /** 412: `if-match` does not match the resource's current etag. */
  noEtagMatch: () =>
    new OciServiceError(
      412,
      'NoEtagMatch',
      'The resource has been modified: the if-match etag does not match its current etag.',
    ),
  /** 413: the request body is larger than the service accepts. */
  payloadTooLarge: (limitBytes: number) =>
    new OciServiceError(413, 'PayloadTooLarge', `The request body exceeds the limit of ${limitBytes} bytes.`),
  /** 429: throttled. */
  tooManyRequests: (message = 'Too many requests for the tenancy.') =>
    new OciServiceError(429, 'TooManyRequests', message),
  /** 501: an OCI operation this emulator does not implement. */
  methodNotImplemented: (operation: string) =>
    new OciServiceError(
      501,
      'MethodNotImplemented',
      `The operation ${operation} is not implemented by the ocikit emulator.`,
    ),
  /** 500: a bug in the emulator; never used for a client's mistake. */
  internal: (message = 'An internal error occurred.') => new OciServiceError(500, 'InternalServerError', message),
};

export function isOciServiceError(error: unknown): error is OciServiceError {
  return error instanceof OciServiceError;
}
