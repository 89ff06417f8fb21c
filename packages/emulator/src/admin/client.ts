/**
 * The one client of the `/_ocikit` admin API. Tests of every package (emulator, provider, SDK,
 * CLI) and the CLI itself reach the admin API through this class, so that how admin calls are
 * authorised lives in one place.
 */
import type { SandboxIds } from '../services/registry';
export interface FaultSpec {
  /** OCI operation name, e.g. `CreateDrPlan`; every operation when omitted. */
  operation?: string;
  status?: number;
  code?: string;
  message?: string;
  count?: number;
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
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    const response = await fetch(`${this.url}/_ocikit${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new AdminError(method, path, response.status, text);
    return (text ? JSON.parse(text) : undefined) as T;
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

  async clearFaults(): Promise<void> {
    await this.request('DELETE', '/faults');
  }

  async reset(): Promise<void> {
    await this.request('POST', '/reset');
  }
}
