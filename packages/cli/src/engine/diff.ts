// The diff rules of Pulumi's step generator that do not need the state: diffResource (a
// provider's Diff, an unknown answer decided on the inputs), replaceOnChanges, the keys that force
// a replacement, a refresh's inverted diff, and a diff's step event fields (pkg/resource/deploy/
// step_generator.go, sdk/go/common/resource/plugin/provider.go).
import type { DiffResult, ProviderPlugin } from './provider-host';
import type { PropertyDiff, StepEventMetadata } from './types';
import { urnName } from './urn';
import { applyIgnoreChanges, changedKeys, parsePath, pathContains, type Props } from './values';

export const diffKinds: PropertyDiff['diffKind'][] = [
  'add',
  'add-replace',
  'delete',
  'delete-replace',
  'update',
  'update-replace',
];

/**
 * Keys that force a replacement: the provider's replaces and the *_REPLACE detailed diffs (for a
 * diff with no replaceOnChanges, or one applyReplaceOnChanges already marked).
 */
export function replacementKeys(diff: DiffResult): string[] {
  const keys = new Set(diff.replaces);
  for (const [path, d] of Object.entries(diff.detailedDiff ?? {})) if (d.kind % 2 === 1) keys.add(path);
  return [...keys].sort();
}

/**
 * step_generator.go diff for a targeted replace (--replace, a tainted resource): not diffed, a
 * replacement that "blames the id"; the keys that changed are still shown.
 */
export function targetedReplaceDiff(oldInputs: Props, newInputs: Props): DiffResult {
  return {
    changes: 'some',
    replaces: ['id'],
    stables: [],
    deleteBeforeReplace: false,
    diffs: changedKeys(oldInputs, newInputs),
  };
}

/**
 * A Diff that answered unknown decided on the inputs, as Pulumi's diffResource decides it
 * (step_generator.go: some when they differ, else none); ocikit also takes a replacement the
 * provider named as a change.
 */
export function knownDiff(diff: DiffResult, oldInputs: Props, newInputs: Props): DiffResult {
  if (diff.changes !== 'unknown') return diff;
  const keys = changedKeys(oldInputs, newInputs);
  return {
    ...diff,
    changes: keys.length || diff.replaces.length ? 'some' : 'none',
    diffs: diff.diffs.length ? diff.diffs : keys,
  };
}

/**
 * Pulumi's diffResource (step_generator.go): the provider's Diff of a resource's old state and new
 * inputs, with its ignoreChanges, an unknown answer decided on the inputs with those ignoreChanges
 * applied (knownDiff). A refresh's drift and a delete-before-replace's dependents are diffed so.
 */
export async function diffResource(
  plugin: ProviderPlugin,
  r: { urn: string; type: string; id?: string },
  old: { inputs: Props; outputs: Props },
  newInputs: Props,
  ignoreChanges: string[],
): Promise<DiffResult> {
  const answer = await plugin.diff(
    r.urn,
    urnName(r.urn),
    r.type,
    r.id ?? '',
    old.outputs,
    newInputs,
    old.inputs,
    ignoreChanges,
  );
  return knownDiff(answer, old.inputs, applyIgnoreChanges(old.inputs, newInputs, ignoreChanges));
}

/**
 * DiffResult.Invert (sdk/go/common/resource/plugin/provider.go): each detailed entry's kind turned
 * round (DiffKind.Invert: an add is a delete and the other way, an update stays), the rest kept;
 * the detailed diff always there, empty when the provider sent none.
 */
export function invertDiff(diff: DiffResult): DiffResult {
  const inverse = [2, 3, 0, 1, 4, 5];
  const entries = Object.entries(diff.detailedDiff ?? {});
  return { ...diff, detailedDiff: Object.fromEntries(entries.map(([k, d]) => [k, { ...d, kind: inverse[d.kind] }])) };
}

/**
 * A registration's replaceOnChanges applied to its diff, as step_generator.go's
 * applyReplaceOnChanges, with one matcher (paths compare as property paths, Pulumi's
 * PropertyPath.Contains: `tags.env` replaces on a change of `tags.env` only):
 * - `diff`: each detailed entry a path contains turned into its replace kind (`ToReplace`), so
 *   the events and the display say what forces it;
 * - `eventKeys`: a replace step's `keys` as Pulumi's events carry them (`ReplaceKeys`): the
 *   provider's replaces and the changed top-level keys a path contains, not the detailed paths
 *   (those say it in their replace kinds);
 * - `replaceKeys`: everything that forces a replacement: the event keys and the replace kinds.
 */
export function applyReplaceOnChanges(
  diff: DiffResult,
  replaceOnChanges: string[],
): { diff: DiffResult; eventKeys: string[]; replaceKeys: string[] } {
  const keys = new Set(diff.replaces);
  if (replaceOnChanges.length && diff.changes !== 'none') {
    const patterns = replaceOnChanges.map(parsePath);
    const matches = (changed: string) => patterns.some((pattern) => pathContains(pattern, parsePath(changed)));
    for (const changed of diff.diffs) if (matches(changed)) keys.add(changed);
    if (diff.detailedDiff) {
      const detailedDiff = Object.fromEntries(
        Object.entries(diff.detailedDiff).map(([path, d]) => [path, matches(path) ? { ...d, kind: d.kind | 1 } : d]),
      );
      diff = { ...diff, detailedDiff };
    }
  }
  const eventKeys = [...keys].sort();
  return { diff, eventKeys, replaceKeys: [...new Set([...eventKeys, ...replacementKeys(diff)])].sort() };
}

export function diffExtra(
  diff: DiffResult | undefined,
  olds: Props | undefined,
  news: Props,
): Partial<StepEventMetadata> {
  if (!diff) return olds ? { diffs: changedKeys(olds, news) } : {};
  const detailed = diff.detailedDiff
    ? Object.fromEntries(
        Object.entries(diff.detailedDiff).map(([k, v]) => [
          k,
          { diffKind: diffKinds[v.kind] ?? 'update', inputDiff: v.inputDiff },
        ]),
      )
    : undefined;
  return { diffs: diff.diffs, ...(detailed ? { detailedDiff: detailed } : {}) };
}
