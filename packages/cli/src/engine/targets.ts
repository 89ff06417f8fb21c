// Pulumi's resource targeting (`--target`, `--target-dependents`, `--exclude`,
// `--exclude-dependents`): the URN sets and the rules that read a resource's edges, after
// pulumi/pulumi pkg/resource/deploy (UrnTargets in deployment.go, step_generator.go,
// deployment_executor.go), and a run's Targeting, the step rules that use them.
import type { ResourceState } from './state';
import { providerPrefix, stackType } from './urn';

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
    ...Object.values(r.propertyDependencies ?? {}).flatMap((urns) => urns ?? []),
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

/** In `given`, or (`dependents`) depending on a resource in `actual` (given and the dependents found so far). */
function named(given: UrnTargets, actual: UrnTargets, dependents: boolean | undefined, urn: string, edges: Edges) {
  if (given.contains(urn)) return true;
  if (!dependents) return false;
  const provider = providerUrn(edges.provider);
  if (provider && actual.contains(provider)) return true;
  return allDependencies(edges).some((u) => actual.contains(u));
}

/**
 * A run's `--target` and `--exclude` (and their `-dependents` flags), as Pulumi's step generator
 * and deployment executor apply them: which registrations take their step (the sets grow as
 * dependents are found: targetsActual, excludesActual), which deletes a targeted run may make,
 * and which resources a targeted refresh reads.
 */
export class Targeting {
  /** `--target` as given, and grown by the dependents `--target-dependents` finds (targetsActual). */
  readonly targets: UrnTargets;
  private readonly targetsActual: UrnTargets;
  readonly excludes: UrnTargets;
  private readonly excludesActual: UrnTargets;

  constructor(private readonly options: TargetOptions = {}) {
    this.targets = new UrnTargets(options.targets);
    this.targetsActual = new UrnTargets(options.targets);
    this.excludes = new UrnTargets(options.excludes);
    this.excludesActual = new UrnTargets(options.excludes);
  }

  /** Whether the run is targeted at all (--target or --exclude). */
  get constrained(): boolean {
    return this.targets.constrained || this.excludes.constrained;
  }

  /** Whether a targeted run acts on a URN: targeted (or no --target), and not excluded. */
  includes(urn: string): boolean {
    return (
      (!this.targets.constrained || this.targets.contains(urn)) &&
      (!this.excludes.constrained || !this.excludes.contains(urn))
    );
  }

  /** isTargetedForUpdate: named by --target, or (--target-dependents) depending on a targeted resource. */
  private targetedForUpdate(urn: string, edges: Edges): boolean {
    return named(this.targets, this.targetsActual, this.options.targetDependents, urn, edges);
  }

  /** isExcludedFromUpdate: named by --exclude, or (--exclude-dependents) depending on an excluded resource. */
  private excludedFromUpdate(urn: string, edges: Edges): boolean {
    return named(this.excludes, this.excludesActual, this.options.excludeDependents, urn, edges);
  }

  /**
   * Whether a registration's step runs (step_generator.go generateSteps): providers and the stack
   * always do (implicitly targeted); else it must be targeted, or not excluded. Records it among
   * the targeted (or excluded) so its dependents follow with --target-dependents (--exclude-dependents).
   */
  inScope(urn: string, type: string, edges: Edges): boolean {
    const implicit = type.startsWith(providerPrefix) || type === stackType;
    let targeted = true;
    if (!implicit && this.targets.constrained) targeted = this.targetedForUpdate(urn, edges);
    else if (!implicit && this.excludes.constrained) targeted = !this.excludedFromUpdate(urn, edges);
    if (this.excludes.constrained && !targeted && this.excludedFromUpdate(urn, edges))
      this.excludesActual.addLiteral(urn);
    else if (targeted && this.targetedForUpdate(urn, edges)) this.targetsActual.addLiteral(urn);
    return targeted;
  }

  /**
   * GenerateDeletes' targeting: with --target only the targets and what depends on them may be
   * deleted, and a delete of one not named by --target is refused unless --target-dependents
   * (a preview reports each and fails at the end); with --exclude, not the excluded resources nor
   * what they keep.
   */
  deletes(
    base: ResourceState[],
    candidates: ResourceState[],
  ): { chosen: ResourceState[]; refusals: Array<{ urn: string; message: string }> } {
    const t = this.options;
    let chosen = candidates;
    if (this.targets.constrained) {
      const allowed = withDependents(base, this.targets);
      chosen = candidates.filter((r) => allowed.has(r.urn));
    } else if (this.excludes.constrained) {
      const kept = keptWithExcludes(base, this.excludes, Boolean(t.excludeDependents));
      chosen = candidates.filter((r) => !kept.has(r.urn));
    }
    if (this.targets.constrained && !t.targetDependents) {
      // Pulumi's diagnostic 2014, which names the resource (its URN: reported under it).
      const refusals = [...new Set(chosen.filter((r) => !this.targets.contains(r.urn)).map((r) => r.urn))].map(
        (urn) => ({
          urn,
          message: `Resource '${urn}' will be destroyed but was not specified in --target list.\nEither include resource in --target list or pass --target-dependents to proceed.`,
        }),
      );
      return { chosen, refusals };
    }
    return { chosen, refusals: [] };
  }

  /**
   * The resources a targeted refresh reads (deployment_executor.go refresh), undefined for all:
   * the targets, plus (--target-dependents) what depends on one, found in dependency order; or
   * all but the excluded and (--exclude-dependents) what depends on them.
   */
  refreshSelection(ordered: ResourceState[]): Set<ResourceState> | undefined {
    const t = this.options;
    const out = new Set<ResourceState>();
    if (this.excludes.constrained) {
      const excluded = new UrnTargets(t.excludes);
      for (const r of ordered) {
        if (excluded.contains(r.urn)) continue;
        if (t.excludeDependents && allDependencies(r).some((u) => excluded.contains(u))) {
          excluded.addLiteral(r.urn);
          continue;
        }
        out.add(r);
      }
      return out;
    }
    if (!this.targets.constrained) return undefined;
    const targeted = new UrnTargets(t.targets);
    for (const r of ordered) {
      if (targeted.contains(r.urn)) out.add(r);
      else if (t.targetDependents && allDependencies(r).some((u) => targeted.contains(u))) {
        out.add(r);
        targeted.addLiteral(r.urn);
      }
    }
    return out;
  }
}
