import { createHash, verify, type KeyObject } from 'node:crypto';
import { errors, type OciServiceError } from '../core/errors';
import type { Principal } from './auth';

/**
 * OCI request signatures (draft-cavage HTTP signatures, as every official SDK sends them):
 *
 *   Authorization: Signature version="1",keyId="<tenancy>/<user>/<fingerprint>",
 *     algorithm="rsa-sha256",headers="x-date (request-target) host …",signature="<base64>"
 *
 * Pure functions: the caller passes the request's parts, the time and a key lookup. Every
 * failure is 401 NotAuthenticated with a message naming the check that failed.
 */

/** How far a request's date may be from the emulator's wall clock, as OCI allows. */
export const MAX_CLOCK_SKEW_MS = 5 * 60 * 1000;

/** base64(sha256('')): what the SDKs send as x-content-sha256 for an empty body. */
export const EMPTY_BODY_SHA256 = createHash('sha256').update('').digest('base64');

export interface ParsedSignature {
  keyId: string;
  tenancyId: string;
  userId: string;
  fingerprint: string;
  algorithm: string;
  /** Signed header names, lower-case, in signing order. */
  headers: string[];
  signature: Buffer;
}

export interface SignedRequest {
  method: string;
  /** Path and query exactly as received (the `(request-target)` line uses them verbatim). */
  url: string;
  /** Node's header object: lower-case names. */
  headers: Record<string, string | string[] | undefined>;
}

export interface VerifiedSignature {
  principal: Principal;
  /** The signed x-content-sha256, to compare with the body once it is read. */
  bodyDigest?: string;
}

/** Finds the public key of a user's API key; undefined when the tenancy, user or fingerprint is unknown. */
export type KeyLookup = (principal: Principal) => KeyObject | undefined;

/**
 * Signatures already verified: (keyId, signing string, signature) → the key object that
 * verified them. RSASSA-PKCS1-v1_5 is deterministic, so the same triple verifies the same way
 * again, and OCI accepts a replayed request within the 5-minute window anyway (there is no
 * nonce); the date check still runs on every request, before this cache is consulted. An entry
 * counts only while the keyId still resolves to the very key object that verified it, so a
 * key that is replaced or removed is never trusted from here. Bounded (least recently used
 * goes first): saves one RSA verify (~50 µs) per repeated request, e.g. an SDK's retries, polls
 * within the same second, or a benchmark's replayed requests.
 */
export class VerifiedSignatures {
  private readonly entries = new Map<string, KeyObject>();

  constructor(private readonly capacity = 1024) {}

  has(triple: string, key: KeyObject): boolean {
    const verifiedWith = this.entries.get(triple);
    if (verifiedWith === undefined) return false;
    this.entries.delete(triple);
    if (verifiedWith !== key) return false;
    this.entries.set(triple, key);
    return true;
  }

  add(triple: string, key: KeyObject): void {
    this.entries.delete(triple);
    this.entries.set(triple, key);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }
}

const fail = (message: string): OciServiceError =>
  errors.notAuthenticated(`Request signature check failed: ${message}`);

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const PARAM = /^\s*([A-Za-z]+)\s*=\s*"([^"]*)"\s*(?:,|$)/;

/** Shows a client's value in an error message without letting it run on. */
const quote = (value: string): string => JSON.stringify(value.length > 200 ? `${value.slice(0, 200)}…` : value);

/** Parses an Authorization header value; throws 401 naming what is wrong with it. */
export function parseSignature(authorization: string | undefined): ParsedSignature {
  if (authorization === undefined || authorization === '')
    throw fail('the request is not signed (no Authorization header).');
  if (!PRINTABLE_ASCII.test(authorization)) throw fail('the Authorization header contains non-ASCII characters.');
  const scheme = /^Signature\s+/i.exec(authorization);
  if (!scheme) throw fail('the Authorization header does not use the Signature scheme.');
  const params = new Map<string, string>();
  let rest = authorization.slice(scheme[0].length);
  while (rest.trim() !== '') {
    const match = PARAM.exec(rest);
    if (!match) throw fail(`the Authorization header is malformed near ${quote(rest.trim())}.`);
    if (params.has(match[1])) throw fail(`the Authorization header repeats '${match[1]}'.`);
    params.set(match[1], match[2]);
    rest = rest.slice(match[0].length);
  }
  const version = params.get('version');
  if (version !== undefined && version !== '1') throw fail(`unsupported signature version ${quote(version)}.`);
  const keyId = params.get('keyId');
  if (!keyId) throw fail("the signature has no 'keyId'.");
  const parts = keyId.split('/');
  if (parts.length !== 3 || parts.some((p) => p === ''))
    throw fail(`keyId ${quote(keyId)} is not of the form <tenancy>/<user>/<fingerprint>.`);
  const algorithm = params.get('algorithm') ?? 'rsa-sha256';
  if (algorithm.toLowerCase() !== 'rsa-sha256')
    throw fail(`unsupported algorithm ${quote(algorithm)} (only rsa-sha256).`);
  const signature = params.get('signature');
  if (!signature) throw fail("the signature has no 'signature' value.");
  if (!BASE64.test(signature)) throw fail("the 'signature' value is not valid base64.");
  // draft-cavage: an absent headers parameter means the Date header alone.
  const headers = (params.get('headers') ?? 'date')
    .toLowerCase()
    .split(' ')
    .filter((h) => h !== '');
  return {
    keyId,
    tenancyId: parts[0],
    userId: parts[1],
    fingerprint: parts[2],
    algorithm: 'rsa-sha256',
    headers,
    signature: Buffer.from(signature, 'base64'),
  };
}

const headerValue = (request: SignedRequest, name: string): string | undefined => {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
};

/** Methods whose body the signature must cover, as OCI requires. */
export const requiresBodyHeaders = (method: string): boolean => method === 'POST' || method === 'PUT';

/** The string the client signed: one `name: value` line per listed header. */
export function signingString(request: SignedRequest, headers: string[]): string {
  return headers
    .map((name) => {
      if (name === '(request-target)') return `(request-target): ${request.method.toLowerCase()} ${request.url}`;
      const value = headerValue(request, name);
      if (value === undefined) throw fail(`header '${name}' is listed as signed but absent from the request.`);
      return `${name}: ${value}`;
    })
    .join('\n');
}

/**
 * Verifies the request's signature (everything but the body, which `checkBodyDigest` compares
 * once it has been read) and returns who signed it.
 */
export function verifySignature(
  request: SignedRequest,
  now: number,
  lookup: KeyLookup,
  verified?: VerifiedSignatures,
): VerifiedSignature {
  const parsed = parseSignature(headerValue(request, 'authorization'));
  const signed = new Set(parsed.headers);
  const required = ['(request-target)', 'host'];
  if (requiresBodyHeaders(request.method)) required.push('x-content-sha256', 'content-type', 'content-length');
  const missing = required.filter((h) => !signed.has(h));
  if (!signed.has('date') && !signed.has('x-date')) missing.push('date or x-date');
  if (missing.length > 0)
    throw fail(
      `the signature does not cover required header(s): ${missing.join(', ')} (signed: ${[...signed].join(' ')}).`,
    );

  const dateHeader = signed.has('x-date') ? 'x-date' : 'date';
  const date = headerValue(request, dateHeader);
  const at = date === undefined ? NaN : httpDate(date);
  if (date !== undefined && Number.isNaN(at))
    throw fail(
      `the ${dateHeader} header ${quote(date)} is not an HTTP date (RFC 7231, such as ${new Date(now).toUTCString()}).`,
    );
  if (!Number.isNaN(at) && Math.abs(now - at) > MAX_CLOCK_SKEW_MS)
    throw fail(
      `the ${dateHeader} header (${date}) is more than 5 minutes from the emulator's clock (${new Date(now).toUTCString()}).`,
    );

  const text = signingString(request, parsed.headers);
  const principal: Principal = { tenancyId: parsed.tenancyId, userId: parsed.userId, fingerprint: parsed.fingerprint };
  const key = lookup(principal);
  if (!key) throw fail(`no API key with keyId ${quote(parsed.keyId)} is known to this emulator.`);
  const triple = verified && `${parsed.keyId}\n${headerValue(request, 'authorization')}\n${text}`;
  if (!(triple && verified.has(triple, key))) {
    const verifies = (signingText: string): boolean => {
      try {
        return verify('RSA-SHA256', Buffer.from(signingText, 'utf8'), key, parsed.signature);
      } catch {
        return false;
      }
    };
    let valid = verifies(text);
    if (!valid && signed.has('(request-target)')) {
      // oci-common signs the target as Node's legacy url.parse writes it and sends it as fetch's
      // URL does; for a query with non-ASCII or |^`{}\ characters the two differ (see legacyTarget).
      const legacy = legacyTarget(request.url);
      valid = legacy !== undefined && verifies(signingString({ ...request, url: legacy }, parsed.headers));
    }
    if (!valid) throw fail(`the signature does not match the request and the key of keyId ${quote(parsed.keyId)}.`);
    if (triple) verified.add(triple, key);
  }
  return {
    principal,
    bodyDigest: signed.has('x-content-sha256') ? headerValue(request, 'x-content-sha256') : undefined,
  };
}

/**
 * The request target as oci-common 2.139.1 signed it, when it differs from what arrived: its signer
 * takes the path of Node's legacy `url.parse(uri)`, which leaves non-ASCII characters raw and
 * percent-encodes \t \n \v \f \r space " ' < > \ ^ ` { | }, while the request goes out through
 * WHATWG's URL, which percent-encodes non-ASCII (UTF-8) and leaves |^`{}\ raw in a query. So the
 * official TypeScript SDK can list with such a filter (`displayName: 'é'`): the signature is checked
 * against the target as received, then against this form. Undefined when they are the same.
 */
function legacyTarget(target: string): string | undefined {
  const decoded = target.replace(/(?:%[89a-fA-F][0-9a-fA-F])+/g, (bytes) => {
    try {
      return decodeURIComponent(bytes);
    } catch {
      return bytes;
    }
  });
  const legacy = decoded.replace(
    /[\t\n\v\f\r "'<>\\^`{|}]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
  return legacy === target ? undefined : legacy;
}

/** Compares the signed x-content-sha256 with the body's bytes as received. */
export function checkBodyDigest(signedDigest: string | undefined, body: Buffer | undefined): void {
  if (signedDigest === undefined) return;
  const actual = body && body.length > 0 ? createHash('sha256').update(body).digest('base64') : EMPTY_BODY_SHA256;
  if (actual !== signedDigest)
    throw fail('x-content-sha256 does not match the body (was the body changed in transit?).');
}

const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
const TIME = '\\d\\d:\\d\\d:\\d\\d';
/**
 * IMF-fixdate (what every OCI SDK sends; one-digit days too, as Java's RFC_1123 formatter writes
 * them, and a numeric zero offset, as RFC 5322 dates carry it) and RFC 850.
 */
const GMT_DATE = new RegExp(
  `^(?:${DAY}, \\d{1,2} ${MONTH} \\d{4} ${TIME} (?:GMT|UTC?|[+-]0000)|(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day, \\d\\d-${MONTH}-\\d\\d ${TIME} GMT)$`,
);
/** asctime's format, which has no zone: it is GMT (RFC 7231 section 7.1.1.1). */
const ASCTIME = new RegExp(`^${DAY} ${MONTH} [ \\d]\\d ${TIME} \\d{4}$`);

/**
 * The instant of a `date` / `x-date` header, which OCI reads as RFC 7231's HTTP-date (the three
 * forms a recipient accepts); NaN for anything else, such as an ISO 8601 time.
 */
function httpDate(text: string): number {
  if (GMT_DATE.test(text)) return Date.parse(text);
  if (ASCTIME.test(text)) return Date.parse(`${text} GMT`);
  return NaN;
}
