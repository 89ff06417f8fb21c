// A refresh step's own work, as Pulumi's RefreshStep.Apply does it (pkg/resource/deploy/step.go):
// what a read back finds (the new state and its drift), and, once the refresh removed resources it
// found gone, what the others must no longer refer to (rebuildBaseState). The Deployment runs the
// steps (Deployment.refresh: selection, events, counts, state writes).
import { diffExtra, diffResource, invertDiff } from './diff';
import type { ProviderPlugin } from './provider-host';
import type { ResourceState } from './state';
import type { StepEventMetadata } from './types';
import { changedKeys, deepEqual, isSecret, makeSecret } from './values';
import { stackType, urnName } from './urn';
import { goTimeJson } from '../go-json';

/** A refresh's drift: whether the step's result is an update, and the diff its events carry. */
interface Drift {
  changed: boolean;
  extra: Partial<StepEventMetadata>;
}

/** What a refresh's read found of a resource still there: its new state, and its drift. */
export interface RefreshRead {
  next: ResourceState;
  drift: Drift;
}

/**
 * Reads a resource back for a refresh (RefreshStep.Apply): its new state (the outputs keep the
 * secrets the state held; init errors are cleared) and its drift (refreshDrift); undefined when
 * the resource is gone. A failing read or Diff throws: the caller keeps the old state.
 */
export async function refreshRead(plugin: ProviderPlugin, r: ResourceState): Promise<RefreshRead | undefined> {
  const name = urnName(r.urn);
  const read = await plugin.read(r.urn, name, r.type, r.id!, r.outputs, r.inputs);
  if (!read.id) return undefined;
  const outputs = { ...read.properties };
  for (const [k, v] of Object.entries(r.outputs))
    if (isSecret(v) && k in outputs && !isSecret(outputs[k])) outputs[k] = makeSecret(outputs[k]);
  const next: ResourceState = { ...r, id: read.id, outputs, inputs: read.inputs ?? r.inputs, initErrors: undefined };
  delete next.initErrors;
  // Modified moves only when what was read differs from the state (RefreshStep.Apply).
  if (!deepEqual(next.inputs, r.inputs) || !deepEqual(next.outputs, r.outputs)) next.modified = goTimeJson();
  return { next, drift: await refreshDrift(plugin, r, next) };
}

/**
 * What a refresh found changed, as Pulumi's RefreshStep.Apply computes it (pkg/resource/deploy/
 * step.go; the default since pulumi/pulumi#16146, `PULUMI_ENABLE_LEGACY_REFRESH_DIFF` restoring
 * the old way): the diff the next `up` of an unchanged program would show, turned round. The
 * provider's Diff is asked with what was read as the old inputs and outputs and the state's
 * inputs as the new ones (and the state's ignoreChanges), an unknown answer is decided on the
 * inputs (diffResource), and the result is inverted (DiffResult.Invert), so the drift names the
 * inputs the cloud no longer matches; outputs that changed alone are no drift. An external
 * resource (a `.get`) compares its outputs, as Pulumi's does (RefreshStep.ResultOp), and, as
 * there, its step carries no diff (RefreshStep.Apply diffs only a managed resource).
 */
async function refreshDrift(plugin: ProviderPlugin, r: ResourceState, next: ResourceState): Promise<Drift> {
  // Pulumi asks no Diff of an external resource: its step has no diff (no changed keys, no
  // detailed diff); the display shows its changed outputs.
  if (r.external) return { changed: changedKeys(r.outputs, next.outputs).length > 0, extra: {} };
  const diff = await diffResource(plugin, next, next, r.inputs, r.ignoreChanges ?? []);
  return { changed: diff.changes !== 'none', extra: diffExtra(invertDiff(diff), undefined, {}) };
}

/**
 * After a refresh removed resources it found gone, what the others recorded of them goes too, as
 * Pulumi's rebuildBaseState does: dependencies and property dependencies on them are dropped,
 * a `deletedWith` on one is cleared, and a child of one takes its nearest ancestor still there
 * (else the stack) as parent. Otherwise the state refers to resources it does not hold, which
 * the integrity check (`stack import`, Pulumi's) refuses. Each resource to change, with what it
 * becomes (`current`: the state now; `base`: the previous snapshot, for the gone ones' parents).
 */
export function danglingReferenceFixes(
  current: ResourceState[],
  base: ResourceState[],
): Array<[ResourceState, ResourceState]> {
  const live = new Set(current.map((r) => r.urn));
  const known = new Map(base.map((r) => [r.urn, r]));
  const stack = current.find((x) => x.type === stackType && !x.parent)?.urn;
  const keep = (urns: string[]) => urns.filter((u) => live.has(u));
  const fixes: Array<[ResourceState, ResourceState]> = [];
  // New objects, not edits: the state writer keeps each resource's serialized form by identity.
  for (const r of current) {
    const gone = (u: string | undefined) => u !== undefined && !live.has(u);
    const propertyGone = Object.values(r.propertyDependencies ?? {}).some((urns) => urns?.some(gone));
    if (!r.dependencies?.some(gone) && !propertyGone && !gone(r.deletedWith) && !gone(r.parent)) continue;
    const next: ResourceState = { ...r };
    if (r.dependencies) next.dependencies = keep(r.dependencies);
    if (r.propertyDependencies)
      next.propertyDependencies = Object.fromEntries(
        Object.entries(r.propertyDependencies).map(([k, urns]) => [k, urns && keep(urns)]),
      );
    if (gone(r.deletedWith)) delete next.deletedWith;
    if (gone(r.parent)) {
      let parent: string | undefined = r.parent;
      while (parent && !live.has(parent)) parent = known.get(parent)?.parent;
      parent ??= stack;
      if (parent) next.parent = parent;
      else delete next.parent;
    }
    fixes.push([r, next]);
  }
  return fixes;
}
