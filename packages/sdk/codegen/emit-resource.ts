// One resource class file (e.g. disasterrecovery/drPlan.ts), shaped as @pulumi/oci's.
import { finish } from './header';
import { ResourceSpec, Token, sortedEntries } from './schema';
import { TypeMap, docComment } from './type-map';

export function emitResource(types: TypeMap, tok: Token, res: ResourceSpec): string {
  const cls = tok.name;
  const outputs = sortedEntries(res.properties);
  const inputs = sortedEntries(res.inputProperties);
  const state = sortedEntries(res.stateInputs?.properties);
  const requiredOutputs = new Set(res.required ?? []);
  const requiredInputs = res.requiredInputs ?? [];
  const inputNames = new Set(inputs.map(([n]) => n));
  const secretOutputs = outputs.filter(([, p]) => p.secret).map(([n]) => n);
  const replaceOnChanges = inputs.filter(([, p]) => p.replaceOnChanges).map(([n]) => n);

  const props = outputs
    .map(([name, spec]) => {
      const type = types.inner(spec, 'output');
      const out = inputNames.has(name) ? '' : '/*out*/ ';
      const t = requiredOutputs.has(name) ? type : `${type} | undefined`;
      return `${indent(docComment(spec.description, spec.deprecationMessage), 4)}    declare public ${out}readonly ${name}: pulumi.Output<${t}>;\n`;
    })
    .join('');

  const stateAssign = state.map(([n]) => `            resourceInputs[${q(n)}] = state?.${n};\n`).join('');
  const requiredChecks = requiredInputs
    .map(
      (n) =>
        `            if (args?.${n} === undefined && !opts.urn) {\n                throw new Error(${q(`Missing required property '${n}'`)});\n            }\n`,
    )
    .join('');
  const argAssign = inputs
    .map(([n, spec]) =>
      spec.secret
        ? `            resourceInputs[${q(n)}] = args?.${n} ? pulumi.secret(args.${n}) : undefined;\n`
        : `            resourceInputs[${q(n)}] = args?.${n};\n`,
    )
    .join('');
  const outAssign = outputs
    .filter(([n]) => !inputNames.has(n))
    .map(([n]) => `            resourceInputs[${q(n)}] = undefined /*out*/;\n`)
    .join('');
  const extraOpts: string[] = [];
  if (secretOutputs.length) {
    extraOpts.push(
      `        const secretOpts = { additionalSecretOutputs: [${secretOutputs.map(q).join(', ')}] };\n        opts = pulumi.mergeOptions(opts, secretOpts);\n`,
    );
  }
  if (replaceOnChanges.length) {
    extraOpts.push(
      `        const replaceOnChanges = { replaceOnChanges: [${replaceOnChanges.map(q).join(', ')}] };\n        opts = pulumi.mergeOptions(opts, replaceOnChanges);\n`,
    );
  }

  const stateIface = interfaceBody(state, new Set(), types);
  const argsIface = interfaceBody(inputs, new Set(requiredInputs), types);
  return finish(
    `
${docComment(res.description, res.deprecationMessage)}export class ${cls} extends pulumi.CustomResource {
    /**
     * Get an existing ${cls} resource's state with the given name, ID, and optional extra
     * properties used to qualify the lookup.
     *
     * @param name The _unique_ name of the resulting resource.
     * @param id The _unique_ provider ID of the resource to lookup.
     * @param state Any extra arguments used during the lookup.
     * @param opts Optional settings to control the behavior of the CustomResource.
     */
    public static get(name: string, id: pulumi.Input<pulumi.ID>, state?: ${cls}State, opts?: pulumi.CustomResourceOptions): ${cls} {
        return new ${cls}(name, state as unknown as ${cls}Args, { ...opts, id: id });
    }

    /** The type token of this resource: ${q(tok.token)}. */
    public static readonly __pulumiType = ${q(tok.token)};

    /**
     * Returns true if the given object is an instance of ${cls}.  This is designed to work even
     * when multiple copies of the Pulumi SDK have been loaded into the same process.
     */
    public static override isInstance(obj: unknown): obj is ${cls} {
        if (obj === undefined || obj === null) {
            return false;
        }
        return (obj as Record<string, unknown>)['__pulumiType'] === ${cls}.__pulumiType;
    }

${props}
    /**
     * Create a ${cls} resource with the given unique name, arguments, and options.
     *
     * @param name The _unique_ name of the resource.
     * @param args The arguments to use to populate this resource's properties.
     * @param opts A bag of options that control this resource's behavior.
     */
    constructor(name: string, args: ${cls}Args, opts?: pulumi.CustomResourceOptions)
    constructor(name: string, argsOrState?: ${cls}Args | ${cls}State, opts?: pulumi.CustomResourceOptions) {
        const resourceInputs: pulumi.Inputs = {};
        opts = opts || {};
        if (opts.id) {
            const state = argsOrState as ${cls}State | undefined;
${stateAssign}        } else {
            const args = argsOrState as ${cls}Args | undefined;
${requiredChecks}${argAssign}${outAssign}        }
        opts = pulumi.mergeOptions(utilities.resourceOptsDefaults(), opts);
${extraOpts.join('')}        super(${cls}.__pulumiType, name, resourceInputs, opts);
    }
}

/**
 * Input properties used for looking up and filtering ${cls} resources.
 */
export interface ${cls}State {
${stateIface}}

/**
 * The set of arguments for constructing a ${cls} resource.
 */
export interface ${cls}Args {
${argsIface}}
`,
    '../',
  );
}

export function interfaceBody(
  props: [string, import('./schema').PropertySpec][],
  required: Set<string>,
  types: TypeMap,
  usage: 'input' | 'plain' = 'input',
): string {
  return props
    .map(
      ([name, spec]) =>
        `${indent(docComment(spec.description, spec.deprecationMessage), 4)}    ${types.inputProperty(name, spec, required.has(name), usage)};\n`,
    )
    .join('');
}

export function indent(text: string, spaces: number): string {
  const pad = ' '.repeat(spaces);
  return text
    .split('\n')
    .map((l) => (l ? pad + l : l))
    .join('\n');
}

export function q(s: string): string {
  return JSON.stringify(s);
}
