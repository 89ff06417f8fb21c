import type { FastifyReply, FastifyRequest } from 'fastify';
import { errors, OciServiceError } from '../core/errors';

/** What an armed fault does to a matching call. */
export type FaultKind = 'error' | 'latency' | 'drop-response' | 'fail-work-request';
export const FAULT_KINDS: readonly FaultKind[] = ['error', 'latency', 'drop-response', 'fail-work-request'];

/** A fault as the admin API (or `--faults <file>`) arms it. */
export interface FaultSpec {
  /** OCI operation name (e.g. `CreateDrPlan`); absent means any operation. */
  operation?: string;
  /** Resource kind the operation acts on (`DrPlan`, `Endpoint`, …); absent means any. */
  resourceKind?: string;
  /** Default `error`. */
  kind?: FaultKind;
  /** How many matching calls get the fault (default 1), unless `probability` is given. */
  count?: number;
  /** Chance (0–1) that each matching call gets the fault, for as long as the fault stays armed. */
  probability?: number;
  /** Seed of the generator `probability` draws from, so a run repeats exactly. */
  seed?: number;
  /** `error`: the answer. */
  status?: number;
  code?: string;
  message?: string;
  /** `error` with status 429: the `retry-after` header's seconds. */
  retryAfterSeconds?: number;
  /** `latency`: a fixed delay, or one drawn between min and max. */
  delayMs?: number;
  minDelayMs?: number;
  maxDelayMs?: number;
}

/** An armed fault with what is left of it, as `GET /_ocikit/faults` shows it. */
export type ArmedFault = FaultSpec & { kind: FaultKind; count?: number };

/** What the HTTP layer does for one call. */
export interface FaultEffect {
  kind: FaultKind;
  error?: OciServiceError;
  retryAfterSeconds?: number;
  delayMs?: number;
  /** `fail-work-request`: the error the work request lists. */
  failure?: { code: string; message: string };
}

/** mulberry32: small, seeded, so a probability fault fires on the same calls every run. */
function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** Checks a fault as given over HTTP or in a `--faults` file; the old body (no `kind`) is an error fault. */
export function validateFault(input: unknown, where = 'fault'): FaultSpec {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    throw errors.invalidParameter(`${where} must be a JSON object.`);
  const spec = input as Record<string, unknown>;
  const bad = (field: string, what: string) => errors.invalidParameter(`${where}: '${field}' ${what}.`);
  for (const field of ['operation', 'resourceKind', 'code', 'message'])
    if (spec[field] !== undefined && (typeof spec[field] !== 'string' || spec[field] === ''))
      throw bad(field, 'must be a non-empty string');
  const kind = (spec.kind ?? 'error') as FaultKind;
  if (!FAULT_KINDS.includes(kind)) throw bad('kind', `must be one of ${FAULT_KINDS.join(', ')}`);
  if (spec.count !== undefined && !(Number.isInteger(spec.count) && (spec.count as number) >= 1))
    throw bad('count', 'must be an integer of at least 1');
  if (spec.probability !== undefined) {
    if (!isNumber(spec.probability) || spec.probability < 0 || spec.probability > 1)
      throw bad('probability', 'must be a number from 0 to 1');
    if (spec.count !== undefined) throw bad('count', 'cannot be combined with probability');
  }
  if (spec.seed !== undefined && !Number.isInteger(spec.seed)) throw bad('seed', 'must be an integer');
  if (kind === 'error') {
    if (!(Number.isInteger(spec.status) && (spec.status as number) >= 400 && (spec.status as number) <= 599))
      throw bad('status', 'must be an HTTP error status from 400 to 599');
    if (spec.code === undefined) throw errors.missingParameter('code');
  }
  if (spec.retryAfterSeconds !== undefined && !(isNumber(spec.retryAfterSeconds) && spec.retryAfterSeconds >= 0))
    throw bad('retryAfterSeconds', 'must be a non-negative number');
  for (const field of ['delayMs', 'minDelayMs', 'maxDelayMs'])
    if (
      spec[field] !== undefined &&
      !(isNumber(spec[field]) && (spec[field] as number) >= 0 && (spec[field] as number) <= 600_000)
    )
      throw bad(field, 'must be a number of milliseconds from 0 to 600000');
  if (kind === 'latency') {
    const range = spec.minDelayMs !== undefined && spec.maxDelayMs !== undefined;
    if (spec.delayMs === undefined && !range) throw bad('delayMs', 'or minDelayMs and maxDelayMs are required');
    if (range && (spec.minDelayMs as number) > (spec.maxDelayMs as number))
      throw bad('minDelayMs', 'must not exceed maxDelayMs');
  }
  const known = new Set([
    'operation',
    'resourceKind',
    'kind',
    'count',
    'probability',
    'seed',
    'status',
    'code',
    'message',
    'retryAfterSeconds',
    'delayMs',
    'minDelayMs',
    'maxDelayMs',
  ]);
  const unknown = Object.keys(spec).filter((k) => !known.has(k));
  if (unknown.length > 0) throw errors.invalidParameter(`${where}: unknown field(s) ${unknown.join(', ')}.`);
  return { ...(spec as FaultSpec), kind };
}

interface Armed {
  spec: ArmedFault;
  random: () => number;
}

/** The resource kind of an operation's path: `/drPlans/:id` → `DrPlan`. */
export function resourceKindOf(path: string): string {
  const segment = path.split('/').find((s) => s !== '') ?? '';
  const singular = segment.endsWith('s') ? segment.slice(0, -1) : segment;
  return singular.charAt(0).toUpperCase() + singular.slice(1);
}

/**
 * Injected faults (in memory only: they are a test aid, not state). The first armed fault that
 * matches a call (and, for a probability fault, whose draw fires) applies to it.
 */
export class FaultInjector {
  private armed: Armed[] = [];

  add(input: FaultSpec): void {
    const spec = validateFault(input);
    const armed: ArmedFault = { ...spec, kind: spec.kind ?? 'error' };
    if (armed.probability === undefined) armed.count = spec.count ?? 1;
    this.armed.push({ spec: armed, random: seededRandom(spec.seed ?? 1) });
  }

  clear(): void {
    this.armed = [];
  }

  /** What is armed, with the counts left. */
  list(): ArmedFault[] {
    return this.armed.map((a) => ({ ...a.spec }));
  }

  /** The fault that applies to this call of `operation` on `resourceKind`, if any. */
  take(operation: string, resourceKind: string): FaultEffect | undefined {
    for (const armed of this.armed) {
      const spec = armed.spec;
      if (spec.operation !== undefined && spec.operation !== operation) continue;
      if (spec.resourceKind !== undefined && spec.resourceKind.toLowerCase() !== resourceKind.toLowerCase()) continue;
      if (spec.probability !== undefined) {
        if (armed.random() >= spec.probability) continue;
      } else {
        spec.count = (spec.count ?? 1) - 1;
        if (spec.count <= 0) this.armed = this.armed.filter((a) => a !== armed);
      }
      return this.effect(spec, operation, armed.random);
    }
    return undefined;
  }

  private effect(spec: ArmedFault, operation: string, random: () => number): FaultEffect {
    switch (spec.kind) {
      case 'error':
        return {
          kind: 'error',
          error: new OciServiceError(spec.status!, spec.code!, spec.message ?? `Injected fault for ${operation}.`),
          retryAfterSeconds: spec.retryAfterSeconds ?? (spec.status === 429 ? 1 : undefined),
        };
      case 'latency': {
        const delayMs =
          spec.delayMs ?? spec.minDelayMs! + Math.floor(random() * (spec.maxDelayMs! - spec.minDelayMs! + 1));
        return { kind: 'latency', delayMs };
      }
      case 'fail-work-request':
        return {
          kind: 'fail-work-request',
          failure: {
            code: spec.code ?? 'InternalServerError',
            message: spec.message ?? `Injected work request failure for ${operation}.`,
          },
        };
      default:
        return { kind: spec.kind };
    }
  }
}

/** Applies what happens before the operation runs: the delay of a latency fault, the answer of an error fault. */
export async function beforeOperation(fault: FaultEffect, reply: FastifyReply): Promise<void> {
  if (fault.delayMs) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
  if (fault.error) {
    if (fault.retryAfterSeconds !== undefined) reply.header('retry-after', String(fault.retryAfterSeconds));
    throw fault.error;
  }
}

/** drop-response: the operation has run and committed; the client gets no answer at all. */
export function dropResponse(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  reply.hijack();
  request.raw.socket.destroy();
  return reply;
}
