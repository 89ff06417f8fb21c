import { UserError } from '../errors';
import type { ResourceState, Snapshot } from '../engine';
import { allDependencies, providerUrn } from '../engine/targets';
import { urnName } from '../engine/urn';
import type { GlobalOptions } from './options';
import { canPrompt, openStack, skipConfirmations } from './context';
import { ask } from './prompt';

// `state delete|protect|unprotect|taint|untaint|rename`: edits of the stack's state without touching the cloud, as
// Pulumi's (pkg/cmd/pulumi/state, pkg/resource/edit). Like Pulumi they ask on a terminal unless
// --yes and go ahead without a terminal; the state is locked, and the previous version kept as
// the backup.

interface StateEditOptions extends GlobalOptions {
  yes?: boolean;
  all?: boolean;
}

async function editState(options: StateEditOptions, edit: (snapshot: Snapshot) => string): Promise<void> {
  const { state } = openStack(options);
  const yes = skipConfirmations(options);
  if (!yes && canPrompt(options)) {
    const answer = await ask("warning: This command will edit your stack's state directly. Confirm? (yes/no) ");
    if (!/^y(es)?$/i.test(answer)) throw new UserError('confirmation declined');
  }
  state.lock();
  try {
    // The manifest stays, as Pulumi's TotalStateEdit writes back the snapshot it read, its Manifest as it was.
    const snapshot = state.load({ manifest: 'read' });
    const done = edit(snapshot);
    state.replace(snapshot);
    process.stdout.write(`${done}\n`);
  } finally {
    state.unlock();
  }
}

const MISSING_URN = 'Must supply <resource URN> (or --all)';
const noSuchResource = (urn: string) => `No such resource "${urn}" exists in the current state`;

/** The one resource a URN names (a URN is there twice only while a replacement is pending). */
function locate(snapshot: Snapshot, urn: string | undefined): ResourceState {
  if (!urn) throw new UserError(MISSING_URN);
  const found = snapshot.resources.filter((r) => r.urn === urn);
  if (found.length === 0) throw new UserError(noSuchResource(urn));
  if (found.length > 1)
    throw new UserError(
      `Resource URN ambiguously referred to multiple resources (ids ${found.map((r) => r.id).join(', ')}); edit it with stack export and stack import`,
    );
  return found[0];
}

/** Resources that refer to `target`: as parent, dependency, property dependency, deletedWith, replaceWith or provider. */
function dependentsOf(snapshot: Snapshot, target: ResourceState): ResourceState[] {
  return snapshot.resources.filter(
    (r) => r !== target && (providerUrn(r.provider) === target.urn || allDependencies(r).includes(target.urn)),
  );
}

export async function stateDelete(
  options: StateEditOptions & { force?: boolean; targetDependents?: boolean },
  urn?: string,
): Promise<void> {
  if (options.all && urn) throw new UserError('cannot specify a resource URN when deleting all resources');
  await editState(options, (snapshot) => {
    const condemned = new Set<ResourceState>();
    const condemn = (r: ResourceState) => {
      if (condemned.has(r)) return;
      if (r.protect) {
        if (!options.force)
          throw new UserError(
            `${r.urn} can't be safely deleted because it is protected. Re-run this command with --force to force deletion`,
          );
        process.stderr.write(`warning: deleting protected resource ${r.urn} due to presence of --force\n`);
      }
      condemned.add(r);
      const dependents = dependentsOf(snapshot, r).filter((d) => !condemned.has(d));
      if (options.all || options.targetDependents) dependents.forEach(condemn);
      else if (dependents.length > 0)
        throw new UserError(
          `${r.urn} can't be safely deleted because the following resources depend on it: ${dependents.map((d) => `${urnName(d.urn)} (${d.urn})`).join(', ')}; delete those resources first or pass --target-dependents`,
        );
    };
    if (options.all) snapshot.resources.forEach(condemn);
    else condemn(locate(snapshot, urn));
    snapshot.resources = snapshot.resources.filter((r) => !condemned.has(r));
    return options.all ? 'Resources deleted' : 'Resource deleted';
  });
}

/**
 * `state protect [urn] [--all]` and `state unprotect [urn...] [--all]`, as Pulumi's. Unprotect takes
 * several URNs and skips a resource pending deletion (state_unprotect.go unprotectResourcesInSnapshot
 * and unprotectAllResources: only `!res.Delete` ones), refusing the URNs it does not find, naming each.
 * With `--all` the URNs are ignored, as Pulumi's RunE looks at `--all` before its arguments.
 */
export async function stateProtect(options: StateEditOptions, urns: string[], protect: boolean): Promise<void> {
  if (!options.all && urns.length === 0) throw new UserError(MISSING_URN);
  await editState(options, (snapshot) => {
    if (options.all) {
      setFlag(snapshot, 'protect', protect, protect ? snapshot.resources : live(snapshot));
      return `All resources ${protect ? 'protected' : 'unprotected'}`;
    }
    if (protect) {
      setFlag(snapshot, 'protect', true, [locate(snapshot, urns[0])]);
      return 'Resource protected';
    }
    setFlag(snapshot, 'protect', false, named(snapshot, urns));
    return `${urns.length} resources unprotected`;
  });
}

/**
 * `state taint <urn>...` and `state untaint <urn>...|--all`, as Pulumi's (state_taint.go,
 * state_untaint.go): each URN names a resource not pending deletion, the next `up` replaces a
 * tainted one (and its new state is untainted). As unprotect, a URN not found is named and nothing
 * changes; `untaint --all` clears every resource not pending deletion, whatever URNs are given.
 */
export async function stateTaint(options: StateEditOptions, urns: string[], taint: boolean): Promise<void> {
  const all = !taint && options.all;
  if (!all && urns.length === 0) throw new UserError(taint ? 'Must supply <resource URN>' : MISSING_URN);
  await editState(options, (snapshot) => {
    if (all) {
      setFlag(snapshot, 'taint', false, live(snapshot));
      return 'All resources untainted';
    }
    setFlag(snapshot, 'taint', taint, named(snapshot, urns));
    return `${urns.length} resources ${taint ? 'tainted' : 'untainted'}`;
  });
}

/** The resources not pending deletion (Pulumi's state edits skip `res.Delete` ones). */
const live = (snapshot: Snapshot) => snapshot.resources.filter((r) => !r.delete);

/** The resources not pending deletion the URNs name, refusing, each named, the URNs not found. */
function named(snapshot: Snapshot, urns: string[]): ResourceState[] {
  const byUrn = new Map(live(snapshot).map((r) => [r.urn, r]));
  const missing = urns.filter((urn) => !byUrn.has(urn));
  // Pulumi puts each on a line of its own; an error is one line here.
  if (missing.length > 0) throw new UserError(missing.map(noSuchResource).join('; '));
  return urns.map((urn) => byUrn.get(urn)!);
}

/** Sets or clears `protect` or `taint` on `targets`, in copies. */
function setFlag(snapshot: Snapshot, flag: 'protect' | 'taint', on: boolean, targets: ResourceState[]): void {
  // A resource's state is never changed in place (the state writer caches each object's text).
  const changed = new Set(targets);
  snapshot.resources = snapshot.resources.map((r) => {
    if (!changed.has(r)) return r;
    const { [flag]: _, ...rest } = r;
    return on ? { ...rest, [flag]: true } : rest;
  });
}

/** Pulumi's tokens.IsQName: what a resource name may be. */
const QNAME = /^([A-Za-z_.][A-Za-z0-9_.-]*\/)*[A-Za-z_.][A-Za-z0-9_.-]*$/;
const PROVIDER_TYPE = /^pulumi:providers:/;

/**
 * `state rename <urn> <new-name>`, as Pulumi's (stateRenameOperation): the resource's URN gets the
 * new name, and every reference to it follows (parent, dependencies, property dependencies,
 * deletedWith, replaceWith, and `<urn>::<id>` provider references when it is a provider). The
 * program must then declare the resource under the new name, or pass the old one as an alias.
 */
export async function stateRename(options: StateEditOptions, urn: string, newName: string): Promise<void> {
  // A URN is urn:pulumi:<stack>::<project>::<qualified type>::<name>, the name last.
  const parts = urn.split('::');
  if (!urn.startsWith('urn:pulumi:') || parts.length < 4) throw new UserError('The provided input URN is not valid');
  if (!QNAME.test(newName))
    throw new UserError(
      `invalid name "${newName}": resource names may only contain alphanumerics, underscores, hyphens, dots, and slashes`,
    );
  const newUrn = [...parts.slice(0, 3), newName].join('::');
  await editState(options, (snapshot) => {
    const found = snapshot.resources.filter((r) => r.urn === urn);
    if (found.length !== 1) throw new UserError('The input URN does not correspond to an existing resource');
    if (newUrn === urn) return 'Resource renamed';
    if (snapshot.resources.some((r) => r.urn === newUrn))
      throw new UserError('The chosen new urn for the state corresponds to an already existing resource');
    const [target] = found;
    const oldRef = `${urn}::${target.id ?? ''}`;
    const newRef = `${newUrn}::${target.id ?? ''}`;
    const renamed = (u: string) => (u === urn ? newUrn : u);
    // A resource's state is never changed in place (the state writer caches each object's text).
    snapshot.resources = snapshot.resources.map((r) => {
      const next: ResourceState = { ...r, urn: renamed(r.urn) };
      if (r.parent !== undefined) next.parent = renamed(r.parent);
      if (r.deletedWith !== undefined) next.deletedWith = renamed(r.deletedWith);
      if (r.dependencies) next.dependencies = r.dependencies.map(renamed);
      if (r.replaceWith) next.replaceWith = r.replaceWith.map(renamed);
      if (r.propertyDependencies)
        next.propertyDependencies = Object.fromEntries(
          Object.entries(r.propertyDependencies).map(([key, urns]) => [key, urns?.map(renamed) ?? null]),
        );
      if (PROVIDER_TYPE.test(target.type) && r.provider === oldRef) next.provider = newRef;
      return JSON.stringify(next) === JSON.stringify(r) ? r : next;
    });
    return 'Resource renamed';
  });
}
