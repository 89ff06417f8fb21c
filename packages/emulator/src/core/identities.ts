import { createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { fingerprintOf, type Credentials } from './credentials';
import { errors } from './errors';
import { newOcid } from './ids';
import type { Store } from '../store/store';

/** Who may sign requests: tenancies, their users and the users' API keys, and each tenancy's compartments. */
interface TenancyRecord {
  id: string;
  name: string;
  /** Compartments the emulator created for the tenancy (the tenancy OCID itself is one too). */
  compartments: string[];
}
interface UserRecord {
  id: string;
  tenancyId: string;
}
interface ApiKeyRecord {
  userId: string;
  fingerprint: string;
  publicKeyPem: string;
}
interface IdentityDocument {
  tenancies: TenancyRecord[];
  users: UserRecord[];
  keys: ApiKeyRecord[];
}

/** Compartment ownership, as the HTTP layer applies it to every OCI call. */
export interface TenancyRules {
  /** The compartment is the tenancy itself or one the emulator created for it. */
  owns(tenancyId: string, compartmentId: string): boolean;
  /**
   * A resource in the compartment is visible to the tenancy: it owns the compartment, or the
   * compartment is unknown (data written before tenancies existed) and this is the first tenancy.
   */
  sees(tenancyId: string, compartmentId: string): boolean;
}

export interface NewTenancy {
  tenancyId: string;
  userId: string;
  fingerprint: string;
  privateKeyPem: string;
}
export type NewUser = Omit<NewTenancy, 'tenancyId'>;
export interface NewKey {
  fingerprint: string;
  privateKeyPem?: string;
}

const META_KEY = 'identities';

function generateKey(): { fingerprint: string; publicKeyPem: string; privateKeyPem: string } {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    fingerprint: fingerprintOf(publicKey.export({ type: 'spki', format: 'der' })),
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

/**
 * The emulator's identity domain, kept in the database's meta table (it is small and read on
 * every request, so it lives in memory and is written through). The data directory's first
 * tenancy, user and key (`Credentials`) are its first entries, so existing data directories and
 * config files keep working unchanged.
 */
export class Identities implements TenancyRules {
  private doc: IdentityDocument;
  private readonly compartmentOwners = new Map<string, string>();
  private readonly firstTenancyId: string;
  private readonly keyObjects = new Map<string, KeyObject>();

  constructor(
    private readonly store: Store,
    first: Credentials,
  ) {
    const saved = store.getMeta(META_KEY);
    this.doc = saved
      ? (JSON.parse(saved) as IdentityDocument)
      : {
          tenancies: [{ id: first.tenancyId, name: 'ocikit', compartments: [] }],
          users: [{ id: first.userId, tenancyId: first.tenancyId }],
          keys: [],
        };
    // The data directory's own key: the first one of a new directory, or a key file's, which may
    // be new to this one (see loadOrCreateCredentials).
    if (!this.ensureKey(first) && !saved) this.save();
    this.firstTenancyId = this.doc.tenancies[0].id;
    for (const tenancy of this.doc.tenancies) this.indexCompartments(tenancy);
  }

  private indexCompartments(tenancy: TenancyRecord): void {
    this.compartmentOwners.set(tenancy.id, tenancy.id);
    for (const compartmentId of tenancy.compartments) this.compartmentOwners.set(compartmentId, tenancy.id);
  }

  owns(tenancyId: string, compartmentId: string): boolean {
    return this.compartmentOwners.get(compartmentId) === tenancyId;
  }

  sees(tenancyId: string, compartmentId: string): boolean {
    return (this.compartmentOwners.get(compartmentId) ?? this.firstTenancyId) === tenancyId;
  }

  private save(): void {
    this.store.setMeta(META_KEY, JSON.stringify(this.doc));
  }

  private tenancy(tenancyId: string): TenancyRecord {
    const tenancy = this.doc.tenancies.find((t) => t.id === tenancyId);
    if (!tenancy) throw errors.notAuthorizedOrNotFound(`tenancy ${tenancyId}`);
    return tenancy;
  }

  /** The public key for a keyId, only when the user belongs to the tenancy and the key to the user. */
  publicKey(keyId: { tenancyId: string; userId: string; fingerprint: string }): KeyObject | undefined {
    const cacheKey = `${keyId.tenancyId}/${keyId.userId}/${keyId.fingerprint}`;
    const cached = this.keyObjects.get(cacheKey);
    if (cached) return cached;
    const user = this.doc.users.find((u) => u.id === keyId.userId && u.tenancyId === keyId.tenancyId);
    const key = user && this.doc.keys.find((k) => k.userId === user.id && k.fingerprint === keyId.fingerprint);
    if (!key) return undefined;
    const object = createPublicKey(key.publicKeyPem);
    this.keyObjects.set(cacheKey, object);
    return object;
  }

  isTenancy(tenancyId: string): boolean {
    return this.doc.tenancies.some((t) => t.id === tenancyId);
  }

  createTenancy(name?: string): NewTenancy {
    const tenancyId = newOcid('tenancy');
    this.compartmentOwners.set(tenancyId, tenancyId);
    this.doc.tenancies.push({
      id: tenancyId,
      name: name ?? `tenancy-${this.doc.tenancies.length + 1}`,
      compartments: [],
    });
    return { tenancyId, ...this.createUser(tenancyId) };
  }

  createUser(tenancyId: string): NewUser {
    this.tenancy(tenancyId);
    const userId = newOcid('user');
    this.doc.users.push({ id: userId, tenancyId });
    const key = this.addKey(userId);
    return { userId, fingerprint: key.fingerprint, privateKeyPem: key.privateKeyPem! };
  }

  /** Adds an API key to a user: the given public key, or a generated pair (its private half is returned). */
  addKey(userId: string, publicKeyPem?: string): NewKey {
    if (!this.doc.users.some((u) => u.id === userId)) throw errors.notAuthorizedOrNotFound(`user ${userId}`);
    let key: NewKey & { publicKeyPem: string };
    if (publicKeyPem === undefined) key = generateKey();
    else {
      let object: KeyObject;
      try {
        object = createPublicKey(publicKeyPem);
      } catch {
        throw errors.invalidParameter("'publicKeyPem' is not a PEM-encoded public key.");
      }
      if (object.asymmetricKeyType !== 'rsa') throw errors.invalidParameter("'publicKeyPem' must be an RSA key.");
      const der = object.export({ type: 'spki', format: 'der' });
      key = {
        fingerprint: fingerprintOf(der),
        publicKeyPem: object.export({ type: 'spki', format: 'pem' }).toString(),
      };
    }
    if (this.doc.keys.some((k) => k.userId === userId && k.fingerprint === key.fingerprint))
      throw errors.conflict(`The user already has the key ${key.fingerprint}.`);
    this.doc.keys.push({ userId, fingerprint: key.fingerprint, publicKeyPem: key.publicKeyPem });
    this.save();
    return key.privateKeyPem
      ? { fingerprint: key.fingerprint, privateKeyPem: key.privateKeyPem }
      : { fingerprint: key.fingerprint };
  }

  /** Registers a user's key from its credentials unless it is there; whether it was added (and saved). */
  private ensureKey(credentials: Credentials): boolean {
    if (this.doc.keys.some((k) => k.userId === credentials.userId && k.fingerprint === credentials.fingerprint))
      return false;
    this.doc.keys.push({
      userId: credentials.userId,
      fingerprint: credentials.fingerprint,
      publicKeyPem: createPublicKey(credentials.privateKeyPem).export({ type: 'spki', format: 'pem' }).toString(),
    });
    this.save();
    return true;
  }

  /** Creates a compartment in a tenancy (or registers one the emulator minted, e.g. the sandbox's). */
  addCompartment(tenancyId: string, compartmentId = newOcid('compartment')): string {
    const tenancy = this.tenancy(tenancyId);
    if (!tenancy.compartments.includes(compartmentId)) {
      tenancy.compartments.push(compartmentId);
      this.compartmentOwners.set(compartmentId, tenancyId);
      this.save();
    }
    return compartmentId;
  }
}
