import { isSecret, SECRET_SIG } from './format';

/** A resource `import` adopted, as its code declares it. */
export interface ImportedResource {
  type: string;
  /** The variable (an import file's `name`). */
  name: string;
  /** The resource's name, when it differs from the variable (an import file's `logicalName`). */
  logicalName?: string;
  inputs: Record<string, unknown>;
  /** The variable of the provider the import used (`--provider name=urn`, a `nameTable` name), as Pulumi's code names it. */
  provider?: string;
  /** The variable of the parent (`--parent name=urn`, a `nameTable` name or another import's name). */
  parent?: string;
  /** An import file's `component: true`: no inputs, declared as a `pulumi.ComponentResource`. */
  component?: boolean;
  /** Whether the state marks it protected (Pulumi's code writes `protect` from the state): else the import's flag. */
  protect?: boolean;
}

/**
 * The lines `pulumi import` prints before the code (on stdout only: `--out` gets the code alone).
 */
export function importNotice(protect: boolean): string {
  return [
    'Please copy the following code into your Pulumi application. Not doing so',
    'will cause Pulumi to report that an update will happen on the next update command.',
    '',
    ...(protect
      ? [
          'Please note that the imported resources are marked as protected. To destroy them',
          'you will need to remove the `protect` option and run `ocikit up` *before*',
          'the destroy will take effect.',
          '',
        ]
      : []),
  ].join('\n');
}

/**
 * The code `pulumi import` generates after an import: the resources declared in TypeScript with
 * the inputs the provider read, in the order given (parents first), so that pasting it into the
 * program makes the next `up` a no-op. Secrets become `pulumi.secret(…)`; the package is the one
 * the program uses (`@pulumi/oci`, or `@ocikit/oci`, which has the same shape).
 */
export function importCode(options: { pkg: string; protect: boolean; resources: ImportedResource[] }): string {
  const { pkg, protect, resources } = options;
  const namespaces = [...new Set(resources.filter((r) => !r.component).map((r) => r.type.split(':')[0]))];
  const declarations = resources.map((r) => {
    const name = JSON.stringify(r.logicalName ?? r.name);
    const opts = resourceOptions(
      r.protect ?? protect,
      r.provider && identifier(r.provider),
      r.parent && identifier(r.parent),
    );
    // A component has no schema to generate from: the generic ComponentResource records the same
    // type, name and (empty) inputs, so the next preview finds it unchanged.
    if (r.component)
      return `const ${identifier(r.name)} = new pulumi.ComponentResource(${JSON.stringify(r.type)}, ${name}, {}${opts});`;
    // `oci:AiLanguage/endpoint:Endpoint` → oci.ailanguage.Endpoint, as the SDKs name their modules.
    const [namespace, module, className] = r.type.split(':');
    const ctor = `${namespace}.${module.split('/')[0].toLowerCase()}.${className}`;
    const args = Object.fromEntries(Object.entries(r.inputs).filter(([k, v]) => !k.startsWith('__') && !isEmpty(v)));
    return `const ${identifier(r.name)} = new ${ctor}(${name}, ${literal(args, '')}${opts});`;
  });
  return [
    'import * as pulumi from "@pulumi/pulumi";',
    ...namespaces.map((namespace) => `import * as ${namespace} from "${pkg}";`),
    '',
    ...declarations.flatMap((d, i) => (i > 0 ? ['', d] : [d])),
    '',
  ].join('\n');
}

/** A name as a TypeScript variable: `dr-standby` → `dr_standby`, `1st` → `_1st`. */
function identifier(name: string): string {
  return name.replace(/[^A-Za-z0-9_$]/g, '_').replace(/^([0-9])/, '_$1');
}

/** The options in the order Pulumi's Node.js code generator writes them: parent, provider, protect. */
function resourceOptions(protect: boolean, provider: string | undefined, parent: string | undefined): string {
  const lines = [
    ...(parent ? [`    parent: ${parent},`] : []),
    ...(provider ? [`    provider: ${provider},`] : []),
    ...(protect ? ['    protect: true,'] : []),
  ];
  return lines.length ? `, {\n${lines.join('\n')}\n}` : '';
}

function isEmpty(v: unknown): boolean {
  return (
    v === null ||
    v === undefined ||
    (Array.isArray(v) && v.length === 0) ||
    (typeof v === 'object' && !isSecret(v) && Object.keys(v as object).length === 0)
  );
}

/**
 * A TypeScript literal, four spaces a level as Pulumi's code generator writes it, an object's keys
 * in byte order: Pulumi's importer writes a resource's inputs and an object type's properties in
 * the schema's order, which its binder sorts by name, and a map's keys sorted (pkg/importer/hcl2.go
 * GenerateHCL2Definition over r.InputProperties, generateValue over ObjectType.Properties or
 * obj.StableKeys(); pkg/codegen/schema bindProperties sorts them).
 */
function literal(v: unknown, indent: string): string {
  const inner = indent + '    ';
  if (isSecret(v)) return `pulumi.secret(${literal((v as Record<string, unknown>).value, indent)})`;
  if (Array.isArray(v)) return `[\n${v.map((x) => `${inner}${literal(x, inner)},\n`).join('')}${indent}]`;
  if (typeof v === 'object' && v !== null) {
    const entries = Object.entries(v)
      .filter(([k]) => k !== SECRET_SIG)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const key = (k: string) => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(k) ? k : JSON.stringify(k));
    return `{\n${entries.map(([k, x]) => `${inner}${key(k)}: ${literal(x, inner)},\n`).join('')}${indent}}`;
  }
  return JSON.stringify(v) ?? 'undefined';
}
