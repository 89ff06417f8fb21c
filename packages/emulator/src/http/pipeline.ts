import type { ErrorObject } from 'ajv';
import fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { errors, isOciServiceError, OciServiceError } from '../core/errors';
import { newRequestId } from '../core/ids';
import { toOciError, validatorCompiler } from './validation';

/** Largest request body accepted; bigger ones are refused with 413 before they are parsed. */
export const BODY_LIMIT_BYTES = 5 * 1024 * 1024;
/**
 * Bodies up to this size are read whole even when over BODY_LIMIT_BYTES, so that the 413 reaches
 * the client: one refused while it is still sending sees its connection reset (the OCI SDK's fetch
 * then throws `fetch failed`, without the status). Bigger ones are refused unread.
 */
const READ_LIMIT_BYTES = 64 * 1024 * 1024;

declare module 'fastify' {
  interface FastifyRequest {
    /** The client's `opc-request-id`, or a new one; echoed on every response. */
    requestId: string;
  }
}

/** Maps anything thrown while serving a request to OCI's error; only real bugs become 500. */
export function toServiceError(error: FastifyError | Error): OciServiceError {
  if (isOciServiceError(error)) return error;
  const fe = error as FastifyError;
  if (fe.validation) return toOciError(fe.validation as unknown as ErrorObject[], fe.validationContext ?? 'body');
  switch (fe.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return errors.payloadTooLarge(BODY_LIMIT_BYTES);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return notJson();
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return errors.cannotParseRequest('The Content-Length header does not match the body.');
  }
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    return new OciServiceError(fe.statusCode, 'InvalidParameter', error.message);
  }
  return errors.internal();
}

/**
 * JSON.parse reviver: an object member whose value is null is dropped, as OCI treats an explicit
 * null like an absent optional field (array elements are kept, so `[null]` still fails validation).
 * This is the emulator's one null-handling path: handlers never see a null member.
 */
function withoutNullMembers(this: unknown, _key: string, value: unknown): unknown {
  return value === null && !Array.isArray(this) ? undefined : value;
}

/** What a body sent with any other type than JSON (or an invalid one) answers. */
const notJson = () => errors.cannotParseRequest('The request body must be JSON (Content-Type: application/json).');

/**
 * A content-type parser over the body's bytes: a body over BODY_LIMIT_BYTES is refused (413), a
 * signed x-content-sha256 is compared with exactly the bytes that arrived (`checkRawBody`, set by
 * the OCI API's authentication, so a tampered body is 401 before anything else), then `parse`
 * turns the bytes into the request's body or throws the OCI error that refuses them.
 */
export function bodyParser(parse: (raw: Buffer) => unknown) {
  return (request: FastifyRequest, raw: Buffer, done: (error: Error | null, body?: unknown) => void) => {
    let body: unknown;
    try {
      if (raw.length > BODY_LIMIT_BYTES) throw errors.payloadTooLarge(BODY_LIMIT_BYTES);
      request.checkRawBody?.(raw);
      body = parse(raw);
    } catch (error) {
      return done(error as Error, undefined);
    }
    done(null, body);
  };
}

/**
 * JSON bodies. OCI SDKs send `content-type: application/json` on GETs and DELETEs too: an empty
 * body is no body.
 */
function parseJson(raw: Buffer): unknown {
  if (raw.length === 0) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'), withoutNullMembers);
  } catch {
    throw errors.cannotParseRequest();
  }
  // A body of `null` is a body, not an absent one: refused as any other that is not an object.
  if (body === undefined) throw errors.invalidParameter('The request body must be a JSON object.');
  return body;
}

/**
 * The HTTP pipeline every route shares, OCI's and the admin API's alike: request ids, JSON
 * parsing, schema validation, and one mapping of every error to OCI's error body. Routes are
 * added by plugins (`ociApi`, `adminApi`).
 */
export function createHttpApp(): FastifyInstance {
  const app = fastify({
    logger: false,
    bodyLimit: READ_LIMIT_BYTES,
    // OCIDs run to ~100 characters; longer path parameters are still an id that does not exist.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 2048 },
    return503OnClosing: true,
    // Requests Node's HTTP parser rejects (e.g. headers and URL over 16 KiB) still get OCI's error form.
    clientErrorHandler: (error, socket) => {
      if (!socket.writable) return socket.destroy(error);
      const body = JSON.stringify(
        errors
          .cannotParseRequest(
            `The HTTP request could not be read: ${(error as NodeJS.ErrnoException).code ?? error.message}.`,
          )
          .toBody(),
      );
      socket.end(
        `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
          `opc-request-id: ${newRequestId()}\r\nConnection: close\r\n\r\n${body}`,
      );
    },
    // Errors fastify raises before any hook runs (bad URL encoding, over-long parameters) in OCI's form.
    frameworkErrors: (error, _request, reply) => {
      const requestId = newRequestId();
      (reply as unknown as FastifyReply)
        .code(400)
        .header('opc-request-id', requestId)
        .send(errors.invalidParameter(`The request path is not valid: ${error.message.slice(0, 300)}`).toBody());
    },
  });
  app.setValidatorCompiler(validatorCompiler);
  // Only JSON bodies are parsed. A body of any other type (text/plain, octet-stream, a form, none
  // named) is refused alike rather than dropped, after its size and signed digest are checked;
  // the admin API's object upload adds its own text parser.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, bodyParser(parseJson));
  app.addContentTypeParser(
    '*',
    { parseAs: 'buffer' },
    bodyParser((raw) => {
      if (raw.length > 0) throw notJson();
    }),
  );
  app.decorateRequest('requestId', '');
  app.decorateRequest('checkRawBody', undefined);
  // Callback-style hooks: on the hot path they cost less than async ones.
  app.addHook('onRequest', (request, reply, done) => {
    const given = request.headers['opc-request-id'];
    request.requestId = (Array.isArray(given) ? given[0] : given) || newRequestId();
    reply.header('opc-request-id', request.requestId);
    done();
  });
  app.setErrorHandler((error, request, reply) => {
    const serviceError = toServiceError(error as Error);
    if (serviceError.status >= 500 && !isOciServiceError(error))
      console.error('ocikit emulator: internal error:', error);
    if (serviceError.code === 'TooManyRequests' && !reply.hasHeader('retry-after')) reply.header('retry-after', '1');
    reply.code(serviceError.status).header('opc-request-id', request.requestId).send(serviceError.toBody());
  });
  app.setNotFoundHandler((request, reply) => {
    reply
      .code(404)
      .send(errors.notFound(`No such operation: ${request.method} ${request.url.split('?')[0]}.`).toBody());
  });
  return app;
}
