import { createHash } from 'node:crypto';
import type { Clock } from '../core/clock';
import { errors } from '../core/errors';
import { Repository } from '../core/repository';
import type { Store } from '../store/store';

/** What a replayed request answers: the original response, verbatim. */
export interface RecordedResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

interface RetryTokenBody {
  fingerprint: string;
  response: RecordedResponse;
}

/** OCI keeps retry tokens for 24 hours. */
const TOKEN_LIFETIME_MS = 24 * 60 * 60 * 1000;

/**
 * `opc-retry-token` idempotency. The first request with a token runs and its response is kept
 * (in the same transaction as its effects, so a crash cannot separate them); a retry with the
 * same token and the same request replays that response; the same token on a different
 * request is 409 InvalidatedRetryToken, which no SDK retries.
 */
export class RetryTokens {
  private readonly repository: Repository<RetryTokenBody>;

  constructor(
    store: Store,
    private readonly clock: Clock,
  ) {
    this.repository = new Repository<RetryTokenBody>(store, { name: 'retry_tokens', columns: {} }, clock);
  }

  static fingerprint(tenancyId: string, method: string, path: string, body: unknown): string {
    return createHash('sha256')
      .update(JSON.stringify([tenancyId, method, path, body ?? null]))
      .digest('hex');
  }

  /**
   * A token belongs to one tenancy and to one service in one region (`scope`): each is its own
   * deployment in OCI, so DR in us-phoenix-1 and AI Language in us-ashburn-1 never share one.
   */
  private key(tenancyId: string, scope: string, token: string): string {
    return `${tenancyId}:${scope}:${token}`;
  }

  /** The recorded response to replay, or undefined when the token is new. */
  replay(tenancyId: string, scope: string, token: string, fingerprint: string): RecordedResponse | undefined {
    const entity = this.repository.find(this.key(tenancyId, scope, token));
    if (!entity) return undefined;
    if (entity.body.fingerprint !== fingerprint) {
      throw errors.invalidatedRetryToken(
        `The opc-retry-token '${token}' was already used for a different request; use a new token for a new request.`,
      );
    }
    return entity.body.response;
  }

  record(tenancyId: string, scope: string, token: string, fingerprint: string, response: RecordedResponse): void {
    // Expired tokens are dropped as new ones arrive (an indexed lookup), so the table holds one day of them.
    this.repository.settleDue();
    this.repository.save({
      id: this.key(tenancyId, scope, token),
      region: 'global',
      body: { fingerprint, response },
      transitions: [{ at: this.clock.now() + TOKEN_LIFETIME_MS, remove: true }],
    });
  }
}
