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
  /**
   * The resource the request concerned: the one a create made, or the one an action's path names
   * (absent in tokens recorded before it was kept: they replay as before).
   */
  resourceId?: string;
}

/** OCI keeps retry tokens for 24 hours. */
const TOKEN_LIFETIME_MS = 24 * 60 * 60 * 1000;

/**
 * `opc-retry-token` idempotency. The first request with a token runs and its response is kept
 * (in the same transaction as its effects, so a crash cannot separate them); a retry with the
 * same token and the same request replays that response; the same token on a different
 * request is 409 InvalidatedRetryToken, which no SDK retries.
 *
 * So is a token whose resource has since been deleted (DELETING, DELETED or gone), as OCI
 * documents for "an entity created with the same token": replaying a create would hand out the
 * id of a resource that no longer exists, as CREATING. Decision: an action's token (refresh,
 * associate, change-compartment, …) follows the same rule for the resource its path names,
 * rather than answering 202 for work on a resource that is going away; a new request there
 * answers 409 Conflict (services/common/lifecycle-policy.ts).
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

  /**
   * The recorded response to replay, or undefined when the token is new. `isGone` says whether
   * a resource of the service is DELETING, DELETED or no longer there.
   */
  replay(
    tenancyId: string,
    scope: string,
    token: string,
    fingerprint: string,
    isGone: (resourceId: string) => boolean,
  ): RecordedResponse | undefined {
    const entity = this.repository.find(this.key(tenancyId, scope, token));
    if (!entity) return undefined;
    if (entity.body.fingerprint !== fingerprint) {
      throw errors.invalidatedRetryToken(
        `The opc-retry-token '${token}' was already used for a different request; use a new token for a new request.`,
      );
    }
    const { resourceId } = entity.body;
    if (resourceId !== undefined && isGone(resourceId)) {
      throw errors.invalidatedRetryToken(
        `The opc-retry-token '${token}' was used for a request on ${resourceId}, which has since been deleted; use a new token for a new request.`,
      );
    }
    return entity.body.response;
  }

  record(
    tenancyId: string,
    scope: string,
    token: string,
    fingerprint: string,
    response: RecordedResponse,
    resourceId: string | undefined,
  ): void {
    // Expired tokens are dropped as new ones arrive (an indexed lookup), so the table holds one day of them.
    this.repository.settleDue();
    this.repository.save({
      id: this.key(tenancyId, scope, token),
      region: 'global',
      body: { fingerprint, response, ...(resourceId === undefined ? {} : { resourceId }) },
      transitions: [{ at: this.clock.now() + TOKEN_LIFETIME_MS, remove: true }],
    });
  }
}
