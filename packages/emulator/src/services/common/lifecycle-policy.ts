import { errors, type OciServiceError } from '../../core/errors';
import type { Repository } from '../../core/repository';

/**
 * The one lifecycle policy of every resource of both services: what a request answers when the
 * resource it needs is not in a state that allows it. Where OCI does not document the code:
 *
 * - Transient states (CREATING, UPDATING) end by themselves: 409 IncorrectState, which the OCI
 *   SDKs retry with backoff, so a client that does not wait still succeeds.
 * - Gone states (DELETING, DELETED) and FAILED never become usable again: 409 Conflict, which no
 *   client retries (retrying would only delay the inevitable error).
 *
 * A resource that is DELETING or DELETED (kept readable by GET for the retention period, then 404):
 *
 * - Delete again succeeds and does nothing (no new work request): deletion is idempotent, which is
 *   what the OCI SDK waiters and Terraform/Pulumi deletes tolerate best (a retried or repeated
 *   delete must not fail).
 * - Every other change (update, change-compartment, actions) answers 409 Conflict, as above: the
 *   resource still exists, so 404 would contradict GET.
 */
export const TRANSIENT_STATES: ReadonlySet<string> = new Set(['CREATING', 'UPDATING']);
export const GONE_STATES: ReadonlySet<string> = new Set(['DELETING', 'DELETED']);

export const isTransient = (state: string): boolean => TRANSIENT_STATES.has(state);
export const isGone = (state: string): boolean => GONE_STATES.has(state);

/**
 * The error for a resource in `state` that a request cannot use: IncorrectState when the state is
 * transient, Conflict otherwise. `message` says what and why, e.g. "DR plan x is UPDATING; …".
 */
export function lifecycleRefusal(state: string, message: string): OciServiceError {
  return isTransient(state) ? errors.incorrectState(message) : errors.conflict(message);
}

/**
 * Refuses unless `state` is one of `usable` (ACTIVE by default): transient states with
 * IncorrectState, the rest with Conflict; `message` builds the sentence for the state found.
 */
export function assertUsable(
  state: string,
  message: (state: string) => string,
  usable: readonly string[] = ['ACTIVE'],
): void {
  if (usable.includes(state)) return;
  throw lifecycleRefusal(state, message(state));
}

/** Whether a delete of a resource in `state` is an idempotent no-op (it is already DELETING or DELETED). */
export const deleteIsNoOp = (state: string): boolean => isGone(state);

/**
 * A service's `isGone` (ServiceRoutes): whether the resource `id`, looked up in the service's
 * repositories (one per kind), is DELETING, DELETED or no longer there.
 */
export function goneAmong(repositories: ReadonlyArray<Repository<{ lifecycleState: string }>>) {
  return (id: string): boolean => {
    for (const repository of repositories) {
      const entity = repository.find(id);
      if (entity) return isGone(entity.body.lifecycleState);
    }
    return true;
  };
}
