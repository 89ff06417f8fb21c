// The order the state file keeps its resources in: dependencies before their users, a replaced
// copy after its replacement (what Pulumi's snapshot integrity check requires).
import type { ResourceState } from './state';
import { splitRef } from './urn';

/**
 * Orders resources so that every dependency, parent and provider comes before its users, and a
 * copy marked for deletion after the live copy of its URN (snapshot integrity: Pulumi's
 * VerifyIntegrity refuses a URN seen before unless this copy is marked `delete`, so a replaced
 * copy must follow its replacement, as Pulumi's snapshot manager appends the old ones after the new).
 */
export function orderResources(resources: ResourceState[]): ResourceState[] {
  const byUrn = new Map<string, ResourceState[]>();
  for (const r of resources) byUrn.set(r.urn, [...(byUrn.get(r.urn) ?? []), r]);
  const out: ResourceState[] = [];
  const state = new Map<ResourceState, 'visiting' | 'done'>();
  const visit = (r: ResourceState) => {
    if (state.has(r)) return;
    state.set(r, 'visiting');
    const refs = [
      ...(r.parent ? [r.parent] : []),
      ...(r.provider ? [splitRef(r.provider)[0]] : []),
      ...(r.dependencies ?? []),
      ...(r.deletedWith ? [r.deletedWith] : []),
    ];
    for (const u of refs) for (const d of byUrn.get(u) ?? []) if (d !== r && !(d.urn === r.urn)) visit(d);
    if (r.delete) for (const d of byUrn.get(r.urn)!) if (!d.delete) visit(d);
    state.set(r, 'done');
    out.push(r);
  };
  for (const r of resources) visit(r);
  return out;
}
