// Pending operations (Pulumi's pending_operations): a provider operation is on record in the state
// before it is sent and leaves it once answered, so a run that dies in between leaves a trace; and
// what a later run keeps of an interrupted run's creates, whose resources OCI may have made
// without the id coming back (sent again with their key, their OCI retry token, or reported).
// Resolving them against the state's resources is the Deployment's (resolvePending).
import type { EventSink } from './events';
import type { ProviderPlugin } from './provider-host';
import type { PendingKind, ResourceState, Snapshot } from './state';
import { StepError } from './step-errors';
import { urnName } from './urn';
import { stripSecrets, type Props } from './values';

/** OCI lifecycle states of work still running (a killed run's create, update or delete). */
const SETTLING = new Set(['CREATING', 'UPDATING', 'DELETING']);

/**
 * OCI keeps a retry token for 24 hours (`opc-retry-token`): a create an interrupted run sent longer
 * ago than that and sends again is a new create, which OCI does not match with what the first made.
 */
const RETRY_TOKEN_LIFETIME_MS = 24 * 60 * 60 * 1000;

export function retryTokenExpired(key: string): boolean {
  const sent = Date.parse(key);
  return Number.isFinite(sent) && Date.now() - sent > RETRY_TOKEN_LIFETIME_MS;
}

export function expiredToken(key: string): string {
  return `that create was sent at ${key}, more than 24 hours ago, so OCI no longer knows its retry token and sending it again made a new resource`;
}

/** The state's record of provider operations in flight, and of an interrupted run's creates. */
export class PendingOperations {
  /** The operations the state records as pending: this run's in flight, and an earlier run's not yet resolved. */
  list: Snapshot['pendingOperations'];
  /** Creates an interrupted run sent without learning the id, by URN: their keys and inputs (see create). */
  readonly interruptedCreates = new Map<
    string,
    { key: string; inputs: Props; op: Snapshot['pendingOperations'][number] }
  >();

  constructor(
    list: Snapshot['pendingOperations'],
    private readonly events: EventSink,
    /** Writes the state (resolves when it is on disk). */
    private readonly write: () => Promise<void>,
  ) {
    this.list = [...list];
  }

  /** Records a pending operation and waits until it is on disk, before the provider is called. */
  async begin(resource: ResourceState, type: PendingKind): Promise<() => void> {
    const op = { resource, type };
    this.list.push(op);
    await this.write();
    return () => {
      this.list = this.list.filter((p) => p !== op);
    };
  }

  /**
   * A preview does not resolve pending operations (it writes nothing): it says they are there, and
   * that the run that follows resolves them first, so its steps may differ from the preview's (a
   * create sent again is adopted, not shown as a create). A refresh's preview reads a pending
   * update or delete as its refresh does (see resolvePending): nothing to say.
   */
  notePending(refreshes: boolean): void {
    for (const op of this.list)
      if (!refreshes || op.type === 'creating' || op.type === 'importing')
        this.events.diag(
          'warning',
          `${op.resource.urn}: an earlier run was interrupted while ${op.type} it; the next run that may change it resolves that first (it reads the resource back, or sends the create again), so what it does may differ from this preview`,
          op.resource.urn,
        );
  }

  /** Warns of an interrupted create whose resource, if it was made, this run cannot find. */
  untrackedCreate(urn: string, why: string): void {
    this.events.diag(
      'warning',
      `${urn}: an earlier run was interrupted while creating it, before its id came back, and ${why}; if that create made it, it is not tracked: delete or import it by hand`,
      urn,
    );
  }

  /**
   * Interrupted creates a whole update did not send again (see resolvePending): the program no
   * longer declares them, so nothing will. Said, and forgotten.
   */
  async reportUnresentCreates(): Promise<void> {
    if (this.interruptedCreates.size === 0) return;
    for (const urn of [...this.interruptedCreates.keys()]) {
      this.untrackedCreate(urn, 'this run did not create it again');
      this.forgetInterrupted(urn);
    }
    await this.write();
  }

  /**
   * Interrupted creates a run did not send again (a refresh, an import, a targeted update): kept on
   * record, pending, for the next whole `up` or `destroy`, which sends each again with its key so
   * that OCI answers with what it made (see resolvePending). Forgetting them here would leave what
   * they made untracked, and that `up` would make it twice.
   */
  keepUnresentCreates(): void {
    for (const urn of this.interruptedCreates.keys())
      this.events.diag(
        'warning',
        `${urn}: an earlier run was interrupted while creating it, before its id came back; kept on record: the next whole \`ocikit up\` (or \`ocikit destroy\`) sends that create again, so OCI answers with what it made, if it did, and that run manages it`,
        urn,
      );
  }

  forgetInterrupted(urn: string): void {
    const interrupted = this.interruptedCreates.get(urn);
    this.interruptedCreates.delete(urn);
    this.list = this.list.filter((p) => p !== interrupted?.op);
  }
}

/**
 * Reads a resource an interrupted run was changing, once OCI has finished with it: while its
 * `state` is CREATING, UPDATING or DELETING the work the killed run started is still running,
 * and what it ends as (ACTIVE, FAILED, gone) is what the state must record, or a FAILED update
 * would pass for a done one. Waits up to the operation's customTimeouts (20 minutes, pulumi-oci's
 * default, without).
 */
export async function readOnceSettled(
  plugin: ProviderPlugin,
  r: ResourceState,
  type: PendingKind,
  canceled: () => boolean,
): Promise<{ id: string; properties: Props; inputs?: Props }> {
  const timeouts = r.customTimeouts ?? {};
  const seconds =
    (type === 'deleting' ? timeouts.delete : type === 'creating' ? timeouts.create : timeouts.update) ?? 1200;
  const deadline = Date.now() + seconds * 1000;
  for (let attempt = 0; ; attempt++) {
    const read = await plugin.read(r.urn, urnName(r.urn), r.type, r.id!, r.outputs, r.inputs);
    const state = stripSecrets(read.properties?.state);
    if (!read.id || !SETTLING.has(String(state)) || Date.now() > deadline) return read;
    if (canceled()) throw new StepError('the update was canceled');
    await new Promise((resolve) => setTimeout(resolve, Math.min(2000, 100 * 2 ** attempt)));
  }
}
