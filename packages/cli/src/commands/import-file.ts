import { readFileSync } from 'node:fs';
import { UserError } from '../errors';
import type { ImportSpec } from '../engine/types';

/**
 * `import --file`: Pulumi's bulk import file (pkg/cmd/pulumi/operations/import.go, importFile and
 * parseImportFile), read with its rules. `resources` lists what to adopt; `parent` and `provider`
 * name an entry of `nameTable` (a URN of the stack) or, for `parent`, another resource of the file
 * (by its `name`). `logicalName` is the name in the URN when it differs from `name` (the variable
 * in the code). The result comes parents first, each with the variables the generated code uses.
 */
export interface ImportFile {
  nameTable?: Record<string, string>;
  resources?: ImportFileEntry[];
  providerInputs?: unknown;
}

interface ImportFileEntry {
  type?: string;
  name?: string;
  id?: string;
  parent?: string;
  provider?: string;
  version?: string;
  properties?: string[];
  component?: boolean;
  remote?: boolean;
  logicalName?: string;
  pluginDownloadUrl?: string;
}

/** One import, with the variables its code names (its own, its parent's and its provider's). */
export interface PlannedImport {
  spec: ImportSpec;
  variable: string;
  parentVariable?: string;
  providerVariable?: string;
}

export function readImportFile(path: string): ImportFile {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new UserError(`could not read import file: ${(error as Error).message}`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new UserError('could not read import file: expected an object with "resources" (and "nameTable")');
  const file = raw as ImportFile;
  if (file.resources !== undefined && !Array.isArray(file.resources))
    throw new UserError('could not read import file: "resources" is not a list');
  if (file.nameTable !== undefined && (typeof file.nameTable !== 'object' || Array.isArray(file.nameTable)))
    throw new UserError('could not read import file: "nameTable" is not an object of name → URN');
  return file;
}

/**
 * What a parent's URN adds to its child's type: its qualified type (`a$b$c`), nothing for the stack
 * resource (deploy's generateURN skips the root stack type).
 */
const qualifiedType = (urn: string) => {
  const type = urn.split('::')[2] ?? '';
  return type === 'pulumi:pulumi:Stack' ? '' : type;
};
/** semver.ParseTolerant's forms: an optional `v`, one to three numbers, a pre-release and build. */
const VERSION = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/;
/** A type token, `<package>:<module>:<type>`, as the engine checks an import's (tokens.ParseTypeToken). */
const TYPE_TOKEN = /^[^:]+:[^:]*:[^:]+$/;

/**
 * parseImportFile's checks, in its words ("resource 'x' of type 'T' has no ID"), all reported at
 * once; then each entry's URN, parent and provider resolved.
 */
export function parseImportFile(
  file: ImportFile,
  context: { stack: string; project: string; protect: boolean },
): PlannedImport[] {
  const entries = (file.resources ?? []).map((e, i) => {
    if (typeof e !== 'object' || e === null)
      throw new UserError(`could not read import file: resource ${i} is not an object`);
    // Name and logicalName default to each other.
    return { ...e, name: e.name || e.logicalName || '', logicalName: e.logicalName || e.name || '' };
  });
  if (entries.length === 0) throw new UserError('the import file lists no resources');
  if (file.providerInputs !== undefined)
    throw new UserError(
      "the import file's providerInputs are not supported: name providers already in the stack in nameTable",
    );
  const nameTable = file.nameTable ?? {};
  const errors: string[] = [];
  const describe = (i: number, e: ImportFileEntry) =>
    `resource ${e.name ? `'${e.name}'` : e.id ? `'${e.id}'` : i}${e.type ? ` of type '${e.type}'` : ''}`;
  entries.forEach((e, i) => {
    if (!e.type) errors.push(`${describe(i, e)} has no type`);
    if (!e.name) errors.push(`${describe(i, e)} has no name`);
    if (!e.component && !e.id) errors.push(`${describe(i, e)} has no ID`);
    else if (e.component && e.id) errors.push(`${describe(i, e)} has an ID, but is marked as a component`);
    if (e.remote && !e.component) errors.push(`${describe(i, e)} is marked as remote, but not as a component`);
    else if (e.remote)
      errors.push(
        `${describe(i, e)} is a remote component, which ocikit cannot import (its plugin serves no components)`,
      );
    if (e.type && !e.component && !TYPE_TOKEN.test(e.type))
      errors.push(
        `import type "${e.type}" is not a valid resource type token. Type tokens must be of the format <package>:<module>:<type>`,
      );
    if (e.version && !VERSION.test(e.version))
      errors.push(`could not parse version '${e.version}' for ${describe(i, e)}: not a semantic version`);
    if (e.pluginDownloadUrl) errors.push(`${describe(i, e)} has a pluginDownloadUrl: ocikit runs only its own plugin`);
  });
  if (errors.length) throw new UserError(errors.join('; '));

  // A name used twice is ambiguous: an error only where a parent or provider refers to it.
  const ambiguous = new Set(
    entries.filter((e, i) => entries.findIndex((o) => o.name === e.name) < i).map((e) => e.name),
  );
  const urns = new Map<string, string>(); // an entry's name → its URN, once resolved
  const taken = new Set(Object.values(nameTable));
  const stackPrefix = `urn:pulumi:${context.stack}::${context.project}::`;
  const order: number[] = [];
  const resolved = new Set<number>();
  // Parents first: an entry whose parent is another entry waits for it (Pulumi loops the same way).
  while (resolved.size < entries.length) {
    const before = resolved.size;
    entries.forEach((e, i) => {
      if (resolved.has(i)) return;
      let parentType = '';
      if (e.parent) {
        if (ambiguous.has(e.parent)) errors.push(`${describe(i, e)} has an ambiguous parent`);
        const inTable = nameTable[e.parent];
        const entryParent = entries.findIndex((o) => o.name === e.parent);
        if (inTable) parentType = qualifiedType(inTable);
        else if (entryParent < 0)
          errors.push(`the parent '${e.parent}' for ${describe(i, e)} has no entry in 'nameTable'`);
        else if (!resolved.has(entryParent)) return;
        else parentType = qualifiedType(urns.get(e.parent)!);
      }
      const urn = `${stackPrefix}${parentType ? `${parentType}$` : ''}${e.type}::${e.logicalName}`;
      if (taken.has(urn))
        errors.push(`${describe(i, e)} has an ambiguous URN, set name (or logical name) to be unique`);
      taken.add(urn);
      urns.set(e.name, urn);
      resolved.add(i);
      order.push(i);
    });
    if (errors.length) throw new UserError(errors.join('; '));
    // Pulumi would loop for ever on a cycle of parents; say which entries are in it.
    if (resolved.size === before)
      throw new UserError(
        `the parents of ${entries
          .map((e, i) => (resolved.has(i) ? '' : describe(i, e)))
          .filter(Boolean)
          .join(', ')} form a cycle`,
      );
  }

  // The code's variables: an entry's name, unless a nameTable entry has it (then `<name><Type>`, as uniqueName).
  const tableNames = new Set(Object.keys(nameTable));
  const usedNames = new Set([...tableNames, ...entries.map((e) => e.name)]);
  const variableOf = (e: { name: string; type?: string }) => {
    if (!tableNames.has(e.name)) return e.name;
    const base = `${e.name}${(e.type ?? '')
      .split(':')
      .pop()!
      .replace(/^./, (c) => c.toUpperCase())}`;
    let name = base;
    for (let n = 2; usedNames.has(name); n++) name = `${base}${n}`;
    usedNames.add(name);
    return name;
  };
  const variables = new Map(entries.map((e) => [e.name, variableOf(e)]));

  return order.map((i) => {
    const e = entries[i];
    if (e.provider && ambiguous.has(e.provider)) errors.push(`${describe(i, e)} has an ambiguous provider`);
    if (e.provider && !nameTable[e.provider])
      errors.push(`the provider '${e.provider}' for ${describe(i, e)} has no entry in 'nameTable'`);
    if (errors.length) throw new UserError(errors.join('; '));
    const parent = e.parent ? (nameTable[e.parent] ?? urns.get(e.parent)) : undefined;
    const spec: ImportSpec = {
      type: e.type!,
      name: e.logicalName,
      id: e.id ?? '',
      protect: context.protect,
      ...(parent ? { parent } : {}),
      ...(e.provider ? { provider: nameTable[e.provider] } : {}),
      ...(e.version ? { version: normalVersion(e.version) } : {}),
      ...(e.properties?.length ? { properties: e.properties } : {}),
      ...(e.component ? { component: true } : {}),
    };
    return {
      spec,
      variable: variables.get(e.name)!,
      ...(e.parent ? { parentVariable: nameTable[e.parent] ? e.parent : variables.get(e.parent) } : {}),
      ...(e.provider ? { providerVariable: e.provider } : {}),
    };
  });
}

/** `v1.2` → `1.2.0`: the version the default provider's name and inputs carry. */
function normalVersion(version: string): string {
  const [, major, minor, patch, pre, build] = VERSION.exec(version)!;
  return `${major}.${minor ?? 0}.${patch ?? 0}${pre ?? ''}${build ?? ''}`;
}
