import { isSecret, SECRET_SIG } from './format';

/**
 * The code `pulumi import` prints after an import: the resource declared in TypeScript with the
 * inputs the provider read, so that pasting it into the program makes the next `up` a no-op.
 * Secrets become `pulumi.secret(…)`; the package is the one the program uses (`@pulumi/oci`, or
 * `@ocikit/oci`, which has the same shape).
 */
export function importCode(options: {
  pkg: string;
  type: string;
  name: string;
  inputs: Record<string, unknown>;
  protect: boolean;
  /** The variable of the provider the import used (`--provider name=urn`), as Pulumi's code names it. */
  provider?: string;
  /** The variable of the parent (`--parent name=urn`). */
  parent?: string;
}): string {
  const { pkg, type, name, inputs, protect, provider, parent } = options;
  // `oci:AiLanguage/endpoint:Endpoint` → oci.ailanguage.Endpoint, as the SDKs name their modules.
  const [namespace, module, className] = type.split(':');
  const ctor = `${namespace}.${module.split('/')[0].toLowerCase()}.${className}`;
  const args = Object.fromEntries(Object.entries(inputs).filter(([k, v]) => !k.startsWith('__') && !isEmpty(v)));
  const variable = identifier(name);
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
    'import * as pulumi from "@pulumi/pulumi";',
    `import * as ${namespace} from "${pkg}";`,
    '',
    `const ${variable} = new ${ctor}(${JSON.stringify(name)}, ${literal(args, '')}${resourceOptions(protect, provider && identifier(provider), parent && identifier(parent))});`,
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

/** A TypeScript literal, four spaces a level as Pulumi's code generator writes it. */
function literal(v: unknown, indent: string): string {
  const inner = indent + '    ';
  if (isSecret(v)) return `pulumi.secret(${literal((v as Record<string, unknown>).value, indent)})`;
  if (Array.isArray(v)) return `[\n${v.map((x) => `${inner}${literal(x, inner)},\n`).join('')}${indent}]`;
  if (typeof v === 'object' && v !== null) {
    const entries = Object.entries(v).filter(([k]) => k !== SECRET_SIG);
    const key = (k: string) => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(k) ? k : JSON.stringify(k));
    return `{\n${entries.map(([k, x]) => `${inner}${key(k)}: ${literal(x, inner)},\n`).join('')}${indent}}`;
  }
  return JSON.stringify(v) ?? 'undefined';
}
