import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { regionKey } from './regions';

/** OCI's OCID alphabet: lower-case base32 without padding. */
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

function base32(bytes: Buffer): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/**
 * A new OCID, `ocid1.<resourceType>.oc1.<regionKey>.<unique>`, as OCI mints them: the unique
 * part is 60 base32 characters starting with `amaaaaaa`. A regionless OCID (tenancy,
 * compartment, user) has an empty region segment: `ocid1.compartment.oc1..<unique>`.
 */
export function newOcid(resourceType: string, region?: string): string {
  const unique = ('amaaaaaa' + base32(randomBytes(33))).slice(0, 60);
  return `ocid1.${resourceType}.oc1.${region ? regionKey(region) : ''}.${unique}`;
}

/**
 * Ids of DR plan groups and steps. They are not OCIDs: OCI shows `sgid1.group..<id>` and
 * `sgid1.step..<id>`.
 */
export function newPlanElementId(kind: 'group' | 'step'): string {
  return `sgid1.${kind}..${base32(randomBytes(20))}`;
}

/**
 * A plan element id derived from another one, always the same for the same input: the id of a
 * step the service keeps in step with another step (a user-defined step's precheck), so the
 * link needs no stored state and survives every rewrite of the plan's groups.
 */
export function derivedPlanElementId(kind: 'group' | 'step', from: string): string {
  return `sgid1.${kind}..${base32(createHash('sha1').update(`${kind}:${from}`).digest())}`;
}

/** An opc-request-id in OCI's style (upper-case hex groups). */
export function newRequestId(): string {
  return randomUUID().replace(/-/g, '').toUpperCase();
}

/** Loose OCID syntax check: `ocid1.<type>.<realm>.[region].<unique>`. */
export function isOcid(value: unknown, resourceType?: string): value is string {
  if (typeof value !== 'string') return false;
  const parts = value.split('.');
  if (parts.length < 5 || parts[0] !== 'ocid1' || !parts[1] || !parts[2] || !parts[parts.length - 1]) return false;
  return resourceType === undefined || parts[1] === resourceType;
}
