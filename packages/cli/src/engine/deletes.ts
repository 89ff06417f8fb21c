// The rules of a run's deletes that need neither a provider nor the state, as Pulumi's deployment
// executor orders its deletes and its DeleteStep skips the provider: the order a set of deletes
// runs in, and the deletes that only drop a resource from the state. The Deployment runs them
// (finish, destroyAll, deleteAll, deleteOne).
import type { ResourceState } from './state';
import { providerPrefix, splitRef } from './urn';

/** What each of a set of deletes waits for (deleteAll runs each once those are done). */
export function deleteWaits(targets: ResourceState[]): Map<ResourceState, ResourceState[]> {
  // A target waits for every other target that refers to it (dependency, parent or provider).
  const waitFor = new Map<ResourceState, ResourceState[]>();
  for (const t of targets) waitFor.set(t, []);
  for (const t of targets) {
    const refs = new Set([
      ...(t.dependencies ?? []),
      ...(t.parent ? [t.parent] : []),
      ...(t.provider ? [splitRef(t.provider)[0]] : []),
      ...(t.deletedWith ? [t.deletedWith] : []),
    ]);
    for (const u of targets) if (u !== t && refs.has(u.urn)) waitFor.get(u)!.push(t);
  }
  return waitFor;
}

/**
 * Whether a delete leaves the provider alone: an external, component, provider, retained or
 * id-less resource, one that goes with its target (`deletedWith`, deleted in this run), or one
 * already deleted.
 */
export function deleteSkipsProvider(r: ResourceState, deletedWith: boolean): boolean {
  // pendingReplacement: deleted already, by the run that was replacing it.
  return Boolean(
    r.external ||
    !r.custom ||
    r.type.startsWith(providerPrefix) ||
    r.retainOnDelete ||
    !r.id ||
    deletedWith ||
    r.pendingReplacement,
  );
}
