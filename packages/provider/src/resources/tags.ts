import { nestTags } from '../schema';
import type { Failure } from './resource';

/**
 * Defined-tag keys must be `<namespace>.<key>`, with one dot: pulumi-oci refuses any other
 * (terraform-provider-oci tfresource.MapToDefinedTags: "invalid key structure found …").
 */
export function checkDefinedTags(tags: unknown): Failure[] {
  if (!tags || typeof tags !== 'object') return [];
  return Object.keys(tags)
    .filter((k) => !/^[^.\s]+\.[^.\s][^.]*$/.test(k))
    .map((k) => ({ property: 'definedTags', reason: `defined tag key "${k}" must have the form <namespace>.<key>` }));
}

/**
 * The defined tags to send on update: the user's, plus those already on the resource that are
 * ignored (ignoreDefinedTags, Oracle-Tags.*), so sending ours never removes what we ignore.
 */
export function definedTagsToSend(
  wanted: Record<string, string> | undefined,
  current: Record<string, string> | undefined,
  keep: (key: string) => boolean,
): Record<string, Record<string, string>> {
  const merged: Record<string, string> = {};
  for (const [k, v] of Object.entries(current ?? {})) if (!keep(k)) merged[k] = v;
  Object.assign(merged, wanted ?? {});
  return nestTags(merged);
}

/** Tag inputs that reproduce a resource's tags (import/refresh): service-added Oracle-Tags left out. */
export function tagInputs(o: Record<string, unknown>): Record<string, unknown> {
  const inputs: Record<string, unknown> = {};
  const free = o.freeformTags as Record<string, string> | undefined;
  if (free && Object.keys(free).length) inputs.freeformTags = free;
  const defined = Object.entries((o.definedTags as Record<string, string> | undefined) ?? {}).filter(
    ([k]) => !k.startsWith('Oracle-Tags.'),
  );
  if (defined.length) inputs.definedTags = Object.fromEntries(defined);
  return inputs;
}
