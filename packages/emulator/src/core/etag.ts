import { createHash } from 'node:crypto';
import { errors } from './errors';

/**
 * A resource's etag is derived from its current body, so it changes exactly when what a client
 * can read changes (including lifecycle transitions) and never needs storing.
 */
export function etagOf(body: object): string {
  return createHash('sha256').update(JSON.stringify(body)).digest('hex').slice(0, 32);
}

/** Enforces `if-match`: absent matches anything, `*` matches any existing resource. */
export function assertIfMatch(ifMatch: string | undefined, body: object): void {
  if (ifMatch === undefined || ifMatch === '*') return;
  if (ifMatch !== etagOf(body)) throw errors.noEtagMatch();
}
