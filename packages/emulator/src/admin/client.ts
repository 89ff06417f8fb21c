/**
 * The one client of the `/_ocikit` admin API. Tests of every package (emulator, provider, SDK,
 * CLI) and the CLI itself reach the admin API through this class, so that how admin calls are
 * authorised lives in one place.
 */
import type { SandboxIds } from '../services/registry';
export interface FaultSpec {
  /** OCI operation name, e.g. `CreateDrPlan`; every operation when omitted. */
  operation?: string;
  /** Resource kind, e.g. `DrPlan`, `Endpoint`; every kind when omitted. */
  resourceKind?: string;
  /** `error` (default), `latency`, `drop-response` or `fail-work-request`. */
  kind?: 'error' | 'latency' | 'drop-response' | 'fail-work-request';
  /** `error`: status, code and message of the answer; `retryAfterSeconds` for 429. */
  status?: number;
  code?: string;
  message?: string;
  retryAfterSeconds?: number;
  /** `latency`: a fixed delay, or one between min and max. */
  delayMs?: number;
  minDelayMs?: number;
  maxDelayMs?: number;
  /** How many matching calls (default 1), or a probability per call drawn from `seed`. */
  count?: number;
  probability?: number;
  seed?: number;
  [key: string]: unknown;
}

export class AdminError extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly status: number,
    readonly body: string,
  ) {
    super(`admin ${method} ${path}: ${status} ${body}`);
    this.name = 'AdminError';
  }
}

export class AdminClient {
  /**
   * @param url the emulator's base URL (`http://127.0.0.1:PORT`)
   * @param token the admin bearer token, when the emulator requires one
   */
  constructor(
    readonly url: string,
    readonly token?: string,
  ) {}

  /** Calls `<url>/_ocikit<path>` and returns the parsed JSON answer (undefined when empty). */
  async request<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const text = await this.send(
      method,
      path,
      body === undefined ? undefined : JSON.stringify(body),
      'application/json',
    );
    return (text ? JSON.parse(text) : undefined) as T;
  }

  private async send(method: string, path: string, body: string | undefined, contentType: string): Promise<string> {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = contentType;
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    const response = await fetch(`${this.url}/_ocikit${path}`, { method, headers, body });
    const text = await response.text();
    if (!response.ok) throw new AdminError(method, path, response.status, text);
    return text;
  }

  health(): Promise<{ status: string }> {
    return this.request('GET', '/health');
  }

  /** The sandbox ids (seeding it first when `seed` is true). */
  sandbox(seed = false): Promise<SandboxIds> {
    return seed ? this.request('POST', '/seed', { seed: 'sandbox' }) : this.request('GET', '/sandbox');
  }

  /** Moves the emulator's clock forward: pending transitions settle without waiting. */
  async advanceClock(seconds: number): Promise<void> {
    await this.request('POST', '/clock', { advanceSeconds: seconds });
  }

  /** Arms a fault (see the README's admin API section). */
  async injectFault(fault: FaultSpec): Promise<void> {
    await this.request('POST', '/faults', fault);
  }

  /** What is armed, with the counts left. */
  async listFaults(): Promise<FaultSpec[]> {
    return (await this.request<{ items: FaultSpec[] }>('GET', '/faults')).items;
  }

  async clearFaults(): Promise<void> {
    await this.request('DELETE', '/faults');
  }

  async reset(): Promise<void> {
    await this.request('POST', '/reset');
  }

  /** Stores a text object in the emulator's object store (AI Language training data). */
  async putObject(namespace: string, bucket: string, name: string, content: string): Promise<void> {
    const path = [namespace, bucket, ...name.split('/')].map(encodeURIComponent).join('/');
    await this.send('PUT', `/objects/${path}`, content, 'text/plain');
  }

  /** Creates a tenancy with one user and one generated API key (sign requests with them). */
  createTenancy(name?: string): Promise<NewTenancyIdentity> {
    return this.request('POST', '/tenancies', name === undefined ? {} : { name });
  }

  /** Adds a user with a generated API key to a tenancy. */
  createUser(tenancyId: string): Promise<NewUserIdentity> {
    return this.request('POST', `/tenancies/${encodeURIComponent(tenancyId)}/users`, {});
  }

  /** Adds an API key to a user: the given public key, or a generated pair whose private key is returned. */
  addApiKey(userId: string, publicKeyPem?: string): Promise<{ fingerprint: string; privateKeyPem?: string }> {
    return this.request('POST', `/users/${encodeURIComponent(userId)}/keys`, publicKeyPem ? { publicKeyPem } : {});
  }

  /** Creates a compartment in a tenancy. */
  createCompartment(tenancyId: string, name: string): Promise<{ compartmentId: string }> {
    return this.request('POST', `/tenancies/${encodeURIComponent(tenancyId)}/compartments`, { name });
  }
}

export interface NewUserIdentity {
  userId: string;
  fingerprint: string;
  privateKeyPem: string;
}

export interface NewTenancyIdentity extends NewUserIdentity {
  tenancyId: string;
  /** The emulator's home region. */
  region: string;
}
