// The package-level files: utilities, config, the Provider resource, module indexes (lazy loading)
// and the root index, shaped as @pulumi/oci's.
import { indent, interfaceBody, q } from './emit-resource';
import { finish } from './header';
import { PackageSchema, PropertySpec, Token, sortedEntries } from './schema';
import { TypeMap, docComment } from './type-map';

export function emitUtilities(): string {
  return finish(
    `
export function getEnv(...vars: string[]): string | undefined {
    for (const v of vars) {
        const value = process.env[v];
        if (value) {
            return value;
        }
    }
    return undefined;
}

export function getEnvBoolean(...vars: string[]): boolean | undefined {
    const s = getEnv(...vars);
    if (s !== undefined) {
        // The values Go's strconv.ParseBool accepts, as pulumi-oci reads them.
        if (['1', 't', 'T', 'true', 'TRUE', 'True'].includes(s)) {
            return true;
        }
        if (['0', 'f', 'F', 'false', 'FALSE', 'False'].includes(s)) {
            return false;
        }
    }
    return undefined;
}

export function getEnvNumber(...vars: string[]): number | undefined {
    const s = getEnv(...vars);
    if (s !== undefined) {
        const f = parseFloat(s);
        if (!isNaN(f)) {
            return f;
        }
    }
    return undefined;
}

/** The version of this package (package.json), sent with every resource and invoke. */
export function getVersion(): string {
    // src/ and dist/ are both one level below package.json.
    let version = (require('../package.json') as { version: string }).version;
    // Node allows for the version to be prefixed by a "v", while semver doesn't.
    if (version.indexOf('v') === 0) {
        version = version.slice(1);
    }
    return version;
}

/** @internal */
export function resourceOptsDefaults(): { version: string } {
    return { version: getVersion() };
}

/** @internal Defines each property as a getter that loads its module on first use. */
export function lazyLoad(exports: object, props: string[], loadModule: () => unknown): void {
    for (const property of props) {
        Object.defineProperty(exports, property, {
            enumerable: true,
            get: function () {
                return (loadModule() as Record<string, unknown>)[property];
            },
        });
    }
}
`,
    './',
  );
}

function configGetter(spec: PropertySpec, name: string, types: TypeMap): { type: string; expr: string } {
  const type = types.inner(spec, 'output');
  const env = spec.defaultInfo?.environment ?? [];
  const envArgs = env.map(q).join(', ');
  let expr: string;
  let envExpr: string | undefined;
  if (spec.type === 'string' || (spec.type === undefined && !spec.$ref)) {
    expr = `__config.get(${q(name)})`;
    if (env.length) envExpr = `utilities.getEnv(${envArgs})`;
  } else {
    expr = `__config.getObject<${type}>(${q(name)})`;
    if (env.length && spec.type === 'boolean') envExpr = `utilities.getEnvBoolean(${envArgs})`;
    if (env.length && (spec.type === 'integer' || spec.type === 'number'))
      envExpr = `utilities.getEnvNumber(${envArgs})`;
  }
  if (envExpr) expr = `${expr} ?? ${envExpr}`;
  if (spec.default !== undefined) expr = `${expr} ?? ${JSON.stringify(spec.default)}`;
  return { type, expr };
}

export function emitConfigVars(types: TypeMap): string {
  const schema = types.schema;
  const vars = sortedEntries(schema.config?.variables)
    .map(([name, spec]) => {
      const { type, expr } = configGetter(spec, name, types);
      return `${docComment(spec.description, spec.deprecationMessage)}export declare const ${name}: ${type} | undefined;
Object.defineProperty(exports, ${q(name)}, {
    get() {
        return ${expr};
    },
    enumerable: true,
});
`;
    })
    .join('\n');
  return finish(
    `
const __config = new pulumi.Config(${q(schema.name)});

${vars}`,
    '../',
  );
}

export function emitConfigIndex(): string {
  return finish(`\n// Export members:\nexport * from './vars';\n`, '../');
}

export function emitProvider(types: TypeMap): string {
  const schema = types.schema;
  const provider = schema.provider ?? {};
  const outputs = sortedEntries(provider.properties);
  const inputs = sortedEntries(provider.inputProperties);
  const required = new Set(provider.required ?? []);
  const requiredInputs = provider.requiredInputs ?? [];
  const secrets = inputs.filter(([, p]) => p.secret).map(([n]) => n);
  const props = outputs
    .map(([name, spec]) => {
      const type = types.inner(spec, 'output');
      return `${indent(docComment(spec.description, spec.deprecationMessage), 4)}    declare public readonly ${name}: pulumi.Output<${required.has(name) ? type : `${type} | undefined`}>;\n`;
    })
    .join('');
  const checks = requiredInputs
    .map(
      (n) =>
        `            if (args?.${n} === undefined && !opts.urn) {\n                throw new Error(${q(`Missing required property '${n}'`)});\n            }\n`,
    )
    .join('');
  // Provider configuration travels as strings: non-string values are JSON-encoded, as every
  // Pulumi SDK does for provider resources.
  const assign = inputs
    .map(([n, spec]) => {
      const isString = spec.type === 'string';
      if (spec.secret) {
        const value = isString ? `args.${n}` : `pulumi.output(args.${n}).apply(JSON.stringify)`;
        return `            resourceInputs[${q(n)}] = args?.${n} ? pulumi.secret(${value}) : undefined;\n`;
      }
      return isString
        ? `            resourceInputs[${q(n)}] = args?.${n};\n`
        : `            resourceInputs[${q(n)}] = pulumi.output(args?.${n}).apply(JSON.stringify);\n`;
    })
    .join('');
  const secretOpts = secrets.length
    ? `        const secretOpts = { additionalSecretOutputs: [${secrets.map(q).join(', ')}] };\n        opts = pulumi.mergeOptions(opts, secretOpts);\n`
    : '';
  return finish(
    `
${docComment(provider.description ?? `The provider type for the ${schema.name} package. By default, resources use package-wide configuration settings, however an explicit \`Provider\` instance may be created and passed during resource construction to achieve fine-grained programmatic control over provider settings. See the [documentation](https://www.pulumi.com/docs/reference/programming-model/#providers) for more information.`)}export class Provider extends pulumi.ProviderResource {
    /** @internal */
    public static readonly __pulumiType = ${q(schema.name)};

    /**
     * Returns true if the given object is an instance of Provider.  This is designed to work even
     * when multiple copies of the Pulumi SDK have been loaded into the same process.
     */
    public static override isInstance(obj: unknown): obj is Provider {
        if (obj === undefined || obj === null) {
            return false;
        }
        return (obj as Record<string, unknown>)['__pulumiType'] === 'pulumi:providers:' + Provider.__pulumiType;
    }

${props}
    /**
     * Create a Provider resource with the given unique name, arguments, and options.
     *
     * @param name The _unique_ name of the resource.
     * @param args The arguments to use to populate this resource's properties.
     * @param opts A bag of options that control this resource's behavior.
     */
    constructor(name: string, args?: ProviderArgs, opts?: pulumi.ResourceOptions) {
        const resourceInputs: pulumi.Inputs = {};
        opts = opts || {};
        {
${checks}${assign}        }
        opts = pulumi.mergeOptions(utilities.resourceOptsDefaults(), opts);
${secretOpts}        super(Provider.__pulumiType, name, resourceInputs, opts);
    }
}

/**
 * The set of arguments for constructing a Provider resource.
 */
export interface ProviderArgs {
${interfaceBody(inputs, new Set(requiredInputs), types)}}
`,
    './',
  );
}

export interface ModuleMembers {
  module: string;
  folder: string;
  resources: Token[];
  functions: Token[];
}

export function emitModuleIndex(schema: PackageSchema, mod: ModuleMembers): string {
  const files = new Map<string, string>();
  for (const r of mod.resources) {
    files.set(
      r.file,
      `export type { ${r.name}Args, ${r.name}State } from './${r.file}';
export type ${r.name} = import('./${r.file}').${r.name};
export const ${r.name}: typeof import('./${r.file}').${r.name} = null as unknown as typeof import('./${r.file}').${r.name};
utilities.lazyLoad(exports, [${q(r.name)}], () => require('./${r.file}'));
`,
    );
  }
  for (const f of mod.functions) {
    const iface = f.name.charAt(0).toUpperCase() + f.name.slice(1);
    files.set(
      f.file,
      `export type { ${iface}Args, ${iface}Result, ${iface}OutputArgs } from './${f.file}';
export const ${f.name}: typeof import('./${f.file}').${f.name} = null as unknown as typeof import('./${f.file}').${f.name};
export const ${f.name}Output: typeof import('./${f.file}').${f.name}Output = null as unknown as typeof import('./${f.file}').${f.name}Output;
utilities.lazyLoad(exports, [${q(f.name)}, ${q(`${f.name}Output`)}], () => require('./${f.file}'));
`,
    );
  }
  const members = [...files.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, code]) => code)
    .join('\n');
  // Resource modules let the runtime rebuild resource references (e.g. from a stack reference or
  // a component) by token; registering them is why this index is loaded eagerly.
  const register = mod.resources.length
    ? `
const _module = {
    version: utilities.getVersion(),
    construct: (name: string, type: string, urn: string): pulumi.Resource => {
        switch (type) {
${mod.resources
  .map(
    (r) =>
      `            case ${q(r.token)}:\n                return new ${r.name}(name, undefined as unknown as import('./${r.file}').${r.name}Args, { urn });\n`,
  )
  .join('')}            default:
                throw new Error(\`unknown resource type \${type}\`);
        }
    },
};
${mod.resources
  .map((r) => `pulumi.runtime.registerResourceModule(${q(schema.name)}, ${q(r.token.split(':')[1]!)}, _module);\n`)
  .join('')}`
    : '';
  return finish(`\n// Export members:\n${members}${register}`, '../');
}

export function emitRootIndex(schema: PackageSchema, folders: string[]): string {
  const all = [...folders, 'config', 'types'].sort();
  return finish(
    `
// Export members:
export * from './provider';
import { Provider } from './provider';

// Export sub-modules:
${all.map((f) => `import * as ${f} from './${f}';`).join('\n')}

export { ${all.join(', ')} };

pulumi.runtime.registerResourcePackage(${q(schema.name)}, {
    version: utilities.getVersion(),
    constructProvider: (name: string, type: string, urn: string): pulumi.ProviderResource => {
        if (type !== ${q(`pulumi:providers:${schema.name}`)}) {
            throw new Error(\`unknown provider type \${type}\`);
        }
        return new Provider(name, undefined, { urn });
    },
});
`,
    './',
  );
}
