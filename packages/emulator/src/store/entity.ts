/**
 * The document the store keeps for every entity: the wire body clients see now, the changes
 * already scheduled for it (applied by core/lifecycle.ts when they come due), and a typed
 * private part never served. The store indexes `id` and `region` and keeps the rest as JSON.
 */
export interface Transition {
  /** When the change takes effect, in clock milliseconds. */
  at: number;
  /** Fields to set on the body. */
  set?: Record<string, unknown>;
  /** Fields to remove from the body (OCI omits empty optional fields). */
  unset?: string[];
  /** The entity disappears (reads answer 404). */
  remove?: true;
  /** The work request this change belongs to, so cancelling it can drop the change. */
  workRequestId?: string;
}

export interface Entity<
  TBody extends object = Record<string, unknown>,
  TInternal extends object = Record<string, unknown>,
> {
  id: string;
  /** Region the entity lives in (`/r/<region>/…` requests see only their region). */
  region: string;
  /** The resource exactly as the API serves it. */
  body: TBody;
  /** Scheduled changes, ordered by `at`. */
  transitions: Transition[];
  /** Service-private data that is never served (e.g. a trained model's parameters). */
  internal?: TInternal;
}
