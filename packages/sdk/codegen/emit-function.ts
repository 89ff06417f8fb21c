// One function file (e.g. disasterrecovery/getDrPlans.ts): the Promise form, the …Output form and
// their argument and result interfaces, shaped as @pulumi/oci's.
import { indent, interfaceBody, q } from './emit-resource';
import { finish } from './header';
import { FunctionSpec, Token, sortedEntries } from './schema';
import { TypeMap, docComment } from './type-map';

export function emitFunction(types: TypeMap, tok: Token, fn: FunctionSpec): string {
  const fnName = tok.name;
  const iface = fnName.charAt(0).toUpperCase() + fnName.slice(1);
  const args = sortedEntries(fn.inputs?.properties);
  const required = new Set(fn.inputs?.required ?? []);
  const results = sortedEntries(fn.outputs?.properties);
  const requiredResults = new Set(fn.outputs?.required ?? []);
  // Functions whose arguments are all optional take `args?` (as Pulumi's generator does).
  const optionalArgs = required.size === 0;
  const argsParam = optionalArgs ? 'args?' : 'args';
  const argsDefault = optionalArgs ? '    args = args || {};\n' : '';
  const argsObject = args.map(([n]) => `        ${q(n)}: args.${n},\n`).join('');
  const doc = docComment(fn.description, fn.deprecationMessage);
  const resultBody = results
    .map(
      ([n, spec]) =>
        `${indent(docComment(spec.description, spec.deprecationMessage), 4)}    ${types.outputProperty(n, spec, requiredResults.has(n), true)};\n`,
    )
    .join('');

  return finish(
    `
${doc}export function ${fnName}(${argsParam}: ${iface}Args, opts?: pulumi.InvokeOptions): Promise<${iface}Result> {
${argsDefault}    opts = pulumi.mergeOptions(utilities.resourceOptsDefaults(), opts || {});
    return pulumi.runtime.invoke(${q(tok.token)}, {
${argsObject}    }, opts);
}

/**
 * A collection of arguments for invoking ${fnName}.
 */
export interface ${iface}Args {
${interfaceBody(args, required, types, 'plain')}}

/**
 * A collection of values returned by ${fnName}.
 */
export interface ${iface}Result {
${resultBody}}

${doc}export function ${fnName}Output(${argsParam}: ${iface}OutputArgs, opts?: pulumi.InvokeOutputOptions): pulumi.Output<${iface}Result> {
${argsDefault}    opts = pulumi.mergeOptions(utilities.resourceOptsDefaults(), opts || {});
    return pulumi.runtime.invokeOutput(${q(tok.token)}, {
${argsObject}    }, opts);
}

/**
 * A collection of arguments for invoking ${fnName}.
 */
export interface ${iface}OutputArgs {
${interfaceBody(args, required, types, 'input')}}
`,
    '../',
  );
}
