// Aliases, as Pulumi's step generator follows them: the old URNs a registration may have had
// (collapseAliasToUrn, and those its parent's alias implies), which old URN each registration
// claimed through one, and the state's references followed to the new URNs when it is written.
// Finding the old state by them, and refusing a duplicate, is the Deployment's (findOld, claim).
import type { AliasSpec, Registration } from './registration';
import type { ResourceState } from './state';
import { makeUrn, splitRef, stackType, urnName, urnQualifiedType } from './urn';

export class Aliases {
  /** Old URN → the new URN that claimed it through an alias, and back. */
  readonly aliased = new Map<string, string>();
  readonly aliasOf = new Map<string, string>();

  constructor(
    private readonly stack: string,
    private readonly project: string,
  ) {}

  /** A resource's references to resources that moved through an alias, followed to their new URNs. */
  follow(r: ResourceState): ResourceState {
    const f = (u: string) => this.aliased.get(u) ?? u;
    const out: ResourceState = { ...r };
    if (r.parent) out.parent = f(r.parent);
    if (r.dependencies) out.dependencies = r.dependencies.map(f);
    if (r.propertyDependencies)
      out.propertyDependencies = Object.fromEntries(
        Object.entries(r.propertyDependencies).map(([k, v]) => [k, v?.map(f) ?? null]),
      );
    if (r.provider) {
      const [u, id] = splitRef(r.provider);
      out.provider = `${f(u)}::${id}`;
    }
    if (r.deletedWith) out.deletedWith = f(r.deletedWith);
    if (r.replaceWith) out.replaceWith = r.replaceWith.map(f);
    return out;
  }

  /** Every URN the registration may have had (collapseAliasToUrn, plus the aliases its parent's alias implies). */
  urnsOf(reg: Registration): string[] {
    const out = new Set<string>();
    const collapse = (a: AliasSpec): string => {
      if (a.urn) return a.urn;
      let parent = reg.parent;
      if (a.parentUrn) parent = this.aliasOf.get(a.parentUrn) ?? a.parentUrn;
      if (a.noParent || urnQualifiedType(parent) === stackType) parent = '';
      return makeUrn(a.stack || this.stack, a.project || this.project, parent, a.type || reg.type, a.name || reg.name);
    };
    for (const a of reg.aliases ?? []) out.add(collapse(a));
    const parentAlias = reg.parent ? this.aliasOf.get(reg.parent) : undefined;
    if (parentAlias) {
      // A child named after its parent ("app-fn" under "app") follows the parent's old name.
      const parentName = urnName(reg.parent);
      const inherited = (type: string, name: string) =>
        makeUrn(
          this.stack,
          this.project,
          parentAlias,
          type,
          name.startsWith(parentName) ? urnName(parentAlias) + name.slice(parentName.length) : name,
        );
      out.add(inherited(reg.type, reg.name));
      for (const a of reg.aliases ?? []) {
        const c = collapse(a);
        out.add(inherited(urnQualifiedType(c).split('$').pop() ?? '', urnName(c)));
      }
    }
    return [...out];
  }
}
