// The one error mapping: every failure the user sees names the resource, the operation, OCI's
// status, code and message, and the opc-request-id.
import type { Props } from './wire';

export interface OciErrorLike {
  statusCode?: number;
  serviceCode?: string;
  message?: string;
  opcRequestId?: string;
}

export function isOciError(e: unknown): e is OciErrorLike & Error {
  return typeof e === 'object' && e !== null && typeof (e as OciErrorLike).statusCode === 'number';
}

export function isNotFound(e: unknown): boolean {
  return isOciError(e) && e.statusCode === 404;
}

/**
 * OCI's 409 InvalidatedRetryToken (also inside a `call` failure): the token was used for another
 * request, or the resource created with it has since been deleted.
 */
export function isInvalidatedRetryToken(e: unknown): boolean {
  const cause = causeOf(e);
  return isOciError(cause) && cause.statusCode === 409 && cause.serviceCode === 'InvalidatedRetryToken';
}

/** `DrPlan "plan": CreateDrPlan failed: OCI 409 Conflict: <message> (opc-request-id: X)`. */
export function describeError(subject: string, operation: string, e: unknown): string {
  if (isOciError(e)) {
    const rid = e.opcRequestId ? ` (opc-request-id: ${e.opcRequestId})` : '';
    const code = e.serviceCode ? ` ${e.serviceCode}` : '';
    return `${subject}: ${operation} failed: OCI ${e.statusCode}${code}: ${firstLine(e.message)}${rid}`;
  }
  if (typeof e === 'object' && e && (e as { code?: string }).code === 'EOPENBREAKER') {
    return `${subject}: ${operation} failed: too many failed calls to OCI (circuit breaker open)`;
  }
  return `${subject}: ${operation} failed: ${firstLine(messageOf(e))}`;
}

/**
 * The message of anything thrown. The OCI SDK throws a plain object, not an Error, when a request
 * never got an answer (`{message: "fetch failed", requestEndpoint: "GET https://…"}`: endpoint
 * unreachable, connection refused, DNS): its request is named, so the user sees where it went.
 */
export function messageOf(e: unknown): string {
  if (e instanceof Error) return e.message;
  if (typeof e === 'object' && e !== null) {
    const { message, requestEndpoint } = e as { message?: unknown; requestEndpoint?: unknown };
    if (typeof message === 'string')
      return typeof requestEndpoint === 'string' ? `${message} (${requestEndpoint})` : message;
  }
  return String(e);
}

/**
 * Node's fetch rejects with `fetch failed` and keeps why in its `cause` (`connect ECONNREFUSED
 * 127.0.0.1:8080`, `getaddrinfo ENOTFOUND host`, `bad port`), which the OCI SDK's retrier drops (it
 * keeps the message alone). The reason goes into the message, as pulumi-oci's Go SDK passes its
 * dial error on (`dial tcp …: connect: connection refused`).
 */
export function withNetworkReason(e: unknown): unknown {
  if (!(e instanceof Error)) return e;
  const cause = (e as { cause?: unknown }).cause as { message?: unknown; code?: unknown; errors?: unknown } | undefined;
  if (typeof cause !== 'object' || cause === null) return e;
  // An AggregateError (every address of a name refused) has an empty message of its own.
  const nested = Array.isArray(cause.errors) ? cause.errors.map((c: { message?: unknown }) => c?.message) : [];
  const reason = [cause.message, nested.filter(Boolean).join('; '), cause.code].find(
    (r): r is string => typeof r === 'string' && r !== '',
  );
  if (reason && !e.message.includes(reason)) e.message = `${e.message}: ${reason}`;
  return e;
}

function firstLine(s: string | undefined): string {
  return (s ?? '').split('\n')[0].trim();
}

export class ProviderError extends Error {}

/** A resource that exists in OCI but did not become ready: Pulumi must still track it. */
export class PartialFailure extends Error {
  constructor(
    message: string,
    readonly id: string,
    readonly outputs: Props,
  ) {
    super(message);
  }
}

/** Wraps an OCI SDK call so its failure carries the resource and operation. */
export async function call<T>(subject: string, operation: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof ProviderError || e instanceof PartialFailure) throw e;
    const err = new ProviderError(describeError(subject, operation, e));
    (err as { cause?: unknown }).cause = e;
    throw err;
  }
}

export function causeOf(e: unknown): unknown {
  return (e as { cause?: unknown })?.cause ?? e;
}
