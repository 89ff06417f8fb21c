// Pulumi's resource targeting (`--target`, `--target-dependents`, `--exclude`,
// `--exclude-dependents`): the URN sets and the rules that read a resource's edges, after
// pulumi/pulumi pkg/resource/deploy (UrnTargets in deployment.go, step_generator.go,
// deployment_executor.go). The step rules that use them live in deployment.ts.
import type { ResourceState } from './state';

/**
 * A matcher for URN patterns as Pulumi's `--replace` and `--target` take them (UrnTargets in
 * pkg/resource/deploy): `**` matches anything, `*` anything without a colon, the rest literally.
 */
export function urnMatcher(patterns: string[]): (urn: string) => boolean {
  const regexes = patterns.map((p) => {
    const source = p
      .split('**')
      .map((part) =>
        part
          .split('*')
          .map((lit) => lit.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('[^:]*'),
      )
      .join('.*');
    return new RegExp(`^${source}$`);
  });
  return (urn) => regexes.some((r) => r.test(urn));
}

/**
 * A set of URNs given as literals and globs (a pattern with `*`). Unconstrained (no pattern) it
 * contains every URN, as Pulumi's zero UrnTargets does. Literals can be added as dependents are
 * found (UrnTargets.addLiteral), which keeps an unconstrained set unconstrained.
 */
export class UrnTargets {
  readonly literals: string[];
  private readonly added = new Set<string>();
  private readonly globs: (urn: string) => boolean;
  readonly constrained: boolean;

  constructor(patterns: string[] = []) {
    this.literals = patterns.filter((p) => !p.includes('*'));
    const globs = patterns.filter((p) => p.includes('*'));
    this.globs = globs.length ? urnMatcher(globs) : () => false;
    this.constrained = patterns.length > 0;
  }

  contains(urn: string): boolean {
    return !this.constrained || this.literals.includes(urn) || this.added.has(urn) || this.globs(urn);
  }

  addLiteral(urn: string): void {
    if (this.constrained) this.added.add(urn);
  }
}

/** What a run was asked to operate on (engine options, already parsed). */
export interface TargetOptions {
  targets?: string[];
  targetDependents?: boolean;
  excludes?: string[];
  excludeDependents?: boolean;
}

/** The edges of a resource that targeting follows (GetAllDependencies and the provider). */
export type Edges = Pick<
  ResourceState,
  'parent' | 'dependencies' | 'propertyDependencies' | 'deletedWith' | 'replaceWith' | 'provider'
>;

/** A provider reference's URN (`urn::id`). */
export function providerUrn(ref: string | undefined): string {
  if (!ref) return '';
  const i = ref.lastIndexOf('::');
  return i < 0 ? ref : ref.slice(0, i);
}

/**
 * resource.State.GetAllDependencies: the parent, dependencies, property dependencies and
 * `deletedWith` (and `replaceWith`), without the provider (callers add it where Pulumi does).
 */
export function allDependencies(
  r: Pick<ResourceState, 'parent' | 'dependencies' | 'propertyDependencies' | 'deletedWith' | 'replaceWith'>,
): string[] {
  return [
    ...(r.parent ? [r.parent] : []),
    ...(r.dependencies ?? []),
    ...Object.values(r.propertyDependencies ?? {}).flat(),
    ...(r.deletedWith ? [r.deletedWith] : []),
    ...(r.replaceWith ?? []),
  ];
}

/**
 * getTargetDependents: the resources matching `set` and, transitively, everything that depends
 * on them (as dependency, property dependency, `deletedWith`, provider, or as a child).
 */
export function withDependents(resources: ResourceState[], set: UrnTargets): Set<string> {
  const out = new Set<string>();
  const frontier = resources.filter((r) => set.contains(r.urn)).map((r) => r.urn);
  while (frontier.length) {
    const next = frontier.shift()!;
    if (out.has(next)) continue;
    out.add(next);
    for (const r of resources)
      if (!out.has(r.urn) && (providerUrn(r.provider) === next || allDependencies(r).includes(next)))
        frontier.push(r.urn);
  }
  return out;
}

/**
 * The resources an excluded one keeps (determineForbiddenResourcesToDeleteFromExcludes): its
 * parents up to the root and their providers. ocikit also keeps what those depend on, so the
 * state never holds a resource whose dependency was deleted (Pulumi's rule leaves that possible
 * for `destroy --exclude`; the update keeps them through same steps anyway).
 */
export function keptWithExcludes(resources: ResourceState[], excludes: UrnTargets, dependents: boolean): Set<string> {
  const live = resources.filter((r) => !r.delete);
  const keep = dependents ? withDependents(live, excludes) : new Set<string>();
  const byUrn = new Map(live.map((r) => [r.urn, r]));
  const visited = new Set<string>();
  const visit = (urn: string) => {
    const r = byUrn.get(urn);
    if (!r || visited.has(urn)) return;
    visited.add(urn);
    keep.add(urn);
    const provider = providerUrn(r.provider);
    if (provider) visit(provider);
    for (const u of allDependencies(r)) visit(u);
  };
  for (const urn of [...keep]) visit(urn);
  for (const r of live) if (excludes.contains(r.urn)) visit(r.urn);
  return keep;
}

/**
 * `destroy --exclude-protected` (destroy.go separateProtected): the protected resources and,
 * transitively, what they depend on (parent, provider, dependencies) stay; the others are the
 * targets, but for what `--exclude` keeps (the targets would otherwise override it).
 * `protectedCount` counts what protection keeps, as Pulumi's message does.
 */
export function separateProtected(
  resources: ResourceState[],
  exclude: { patterns?: string[]; dependents?: boolean } = {},
): { unprotected: string[]; protectedCount: number } {
  const live = resources.filter((r) => !r.delete);
  // An empty UrnTargets contains everything: keep nothing for an empty list.
  const keptBy = (patterns: string[] | undefined, dependents: boolean) =>
    patterns?.length ? keptWithExcludes(live, new UrnTargets(patterns), dependents) : new Set<string>();
  const kept = keptBy(
    live.filter((r) => r.protect).map((r) => r.urn),
    false,
  );
  const excluded = keptBy(exclude.patterns, Boolean(exclude.dependents));
  return {
    unprotected: live.filter((r) => !kept.has(r.urn) && !excluded.has(r.urn)).map((r) => r.urn),
    protectedCount: kept.size,
  };
}

/** Pulumi's checkTargets diagnostics: a literal target that names no resource of the stack. */
export function missingTargetMessages(targets: UrnTargets, known: (urn: string) => boolean): string[] {
  if (!targets.constrained) return [];
  return targets.literals
    .filter((t) => !known(t))
    .map((t) =>
      t.includes('$')
        ? `Target '${t}' could not be found in the stack.`
        : `Target '${t}' could not be found in the stack. Did you forget to escape $ in your shell?`,
    );
}
