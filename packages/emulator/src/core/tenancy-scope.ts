/**
 * Tenancy isolation as one rule: while a request runs, a resource is visible only when its
 * compartment belongs to the caller's tenancy. Service calls run synchronously (one SQLite
 * transaction), so the caller's rule is held here for exactly the duration of the call, and the
 * repository applies it to every lookup by id: another tenancy's resource is "not found"
 * wherever it is named (path, body reference, work request), with no check per handler.
 */
type CompartmentRule = (compartmentId: string) => boolean;

let current: CompartmentRule | undefined;

/** Runs `fn` with resources confined to the compartments `allows` accepts. */
export function withinTenancy<R>(allows: CompartmentRule, fn: () => R): R {
  const previous = current;
  current = allows;
  try {
    return fn();
  } finally {
    current = previous;
  }
}

/** Whether the running request may see a resource with this body (always, outside a request). */
export function isVisible(body: object): boolean {
  if (!current) return true;
  const compartmentId = (body as { compartmentId?: unknown }).compartmentId;
  return typeof compartmentId !== 'string' || current(compartmentId);
}
