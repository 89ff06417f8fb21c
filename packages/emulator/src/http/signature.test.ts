import assert from 'node:assert/strict';
import { generateKeyPairSync, sign } from 'node:crypto';
import { describe, it } from 'node:test';
import { OciServiceError } from '../core/errors';
import { VerifiedSignatures, signingString, verifySignature, type SignedRequest } from './signature';

const principal = { tenancyId: 'ocid1.tenancy.oc1..t', userId: 'ocid1.user.oc1..u', fingerprint: 'aa:bb' };
const keyId = `${principal.tenancyId}/${principal.userId}/${principal.fingerprint}`;
const pair = () => generateKeyPairSync('rsa', { modulusLength: 2048 });

function signedGet(privateKey: ReturnType<typeof pair>['privateKey'], date: string, url = '/20220125/drPlans/x') {
  const request: SignedRequest = { method: 'GET', url, headers: { host: 'localhost', date } };
  const headers = ['date', '(request-target)', 'host'];
  const signature = sign('RSA-SHA256', Buffer.from(signingString(request, headers)), privateKey).toString('base64');
  request.headers.authorization = `Signature version="1",keyId="${keyId}",algorithm="rsa-sha256",headers="${headers.join(' ')}",signature="${signature}"`;
  return request;
}

const rejects = (fn: () => unknown, pattern: RegExp) =>
  assert.throws(fn, (e: unknown) => e instanceof OciServiceError && e.status === 401 && pattern.test(e.message));

describe('VerifiedSignatures (repeated requests skip the RSA verify)', () => {
  it('trusts a triple only with the key object that verified it, and forgets the least recently used', () => {
    const cache = new VerifiedSignatures(2);
    const a = pair().publicKey;
    const b = pair().publicKey;
    cache.add('one', a);
    assert.equal(cache.has('one', a), true);
    assert.equal(cache.has('one', b), false, 'another key object (key replaced)');
    assert.equal(cache.has('one', a), false, 'and the entry is gone');
    cache.add('one', a);
    cache.add('two', a);
    assert.equal(cache.has('one', a), true); // 'one' is now the most recent
    cache.add('three', a);
    assert.equal(cache.has('two', a), false, 'evicted');
    assert.deepEqual([cache.has('one', a), cache.has('three', a)], [true, true]);
  });

  it('verifySignature: a replay passes from the cache, but the date check, other signatures and other keys still apply', () => {
    const { publicKey, privateKey } = pair();
    const cache = new VerifiedSignatures();
    const now = Date.now();
    const request = signedGet(privateKey, new Date(now).toUTCString());
    const lookup = () => publicKey;
    assert.deepEqual(verifySignature(request, now, lookup, cache).principal, principal);
    assert.deepEqual(verifySignature(request, now + 1000, lookup, cache).principal, principal);
    // Outside the 5-minute window the cached triple does not help.
    rejects(() => verifySignature(request, now + 6 * 60_000, lookup, cache), /more than 5 minutes/);
    // The same request signed by another key: not in the cache, and wrong.
    const other = signedGet(pair().privateKey, String(request.headers.date));
    rejects(() => verifySignature(other, now, lookup, cache), /does not match/);
    // The key was replaced (another key object for the keyId): verified again, and refused.
    rejects(() => verifySignature(request, now, () => pair().publicKey, cache), /does not match/);
    // Unknown key: refused before the cache is consulted.
    rejects(() => verifySignature(request, now, () => undefined, cache), /no API key/);
  });
});

describe('the date a signature covers', () => {
  // OCI reads date / x-date as RFC 7231's HTTP-date; an ISO 8601 time is not one.
  it('accepts the three HTTP-date forms and refuses other date formats', () => {
    const { publicKey, privateKey } = pair();
    const now = Date.parse('2026-11-05T16:25:00Z');
    const lookup = () => publicKey;
    for (const date of [
      'Thu, 05 Nov 2026 16:25:00 GMT',
      'Thu, 5 Nov 2026 16:25:00 GMT',
      'Thursday, 05-Nov-26 16:25:00 GMT',
      'Thu Nov  5 16:25:00 2026',
      'Thu, 05 Nov 2026 16:25:00 +0000',
    ])
      assert.deepEqual(verifySignature(signedGet(privateKey, date), now, lookup).principal, principal, date);
    for (const date of ['2026-11-05T16:25:00.000Z', '2026-11-05 16:25:00', 'Thu, 05 Nov 2026 17:25:00 +0100'])
      rejects(() => verifySignature(signedGet(privateKey, date), now, lookup), /is not an HTTP date \(RFC 7231/);
  });
});
