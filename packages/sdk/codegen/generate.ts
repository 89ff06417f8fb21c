// The generator: schema.json in, the SDK's TypeScript sources and the reference pages out, as
// file maps (path → content). main.ts writes them; the drift test compares them with the repo.
import { format, resolveConfig } from 'prettier';
import { emitDocsIndex, emitFunctionDoc, emitResourceDoc, docPath } from './emit-docs';
import { emitFunction } from './emit-function';
import {
  ModuleMembers,
  emitConfigIndex,
  emitConfigVars,
  emitModuleIndex,
  emitProvider,
  emitRootIndex,
  emitUtilities,
} from './emit-package';
import { emitResource } from './emit-resource';
import { emitInputTypes, emitOutputTypes, emitTypesIndex } from './emit-types';
import { PackageSchema, Token, parseToken, sortedEntries } from './schema';
import { TypeMap } from './type-map';

export interface GeneratedFiles {
  /** Paths relative to the SDK's src/ folder. */
  sdk: Map<string, string>;
  /** Paths relative to docs/reference/. */
  docs: Map<string, string>;
}

export interface GenerateOptions {
  /** A file whose Prettier configuration applies to the generated TypeScript (the repo's). */
  prettierConfigFile?: string;
}

export async function generate(schema: PackageSchema, options: GenerateOptions = {}): Promise<GeneratedFiles> {
  const packageName = schema.language?.nodejs?.packageName ?? `@pulumi/${schema.name}`;
  const types = new TypeMap(schema);
  const sdk = new Map<string, string>();
  const docs = new Map<string, string>();
  const modules = new Map<string, ModuleMembers>();
  const member = (tok: Token): ModuleMembers => {
    const mod = modules.get(tok.folder) ?? { module: tok.module, folder: tok.folder, resources: [], functions: [] };
    modules.set(tok.folder, mod);
    return mod;
  };
  const resources: Token[] = [];
  const functions: Token[] = [];

  for (const [token, res] of sortedEntries(schema.resources)) {
    if (res.isComponent)
      throw new Error(`resource ${token} is a component: the generator handles custom resources only`);
    const tok = parseToken(schema, token);
    member(tok).resources.push(tok);
    resources.push(tok);
    sdk.set(`${tok.folder}/${tok.file}.ts`, emitResource(types, tok, res));
    docs.set(docPath(tok), emitResourceDoc(types, packageName, tok, res));
  }
  for (const [token, fn] of sortedEntries(schema.functions)) {
    const tok = parseToken(schema, token);
    member(tok).functions.push(tok);
    functions.push(tok);
    sdk.set(`${tok.folder}/${tok.file}.ts`, emitFunction(types, tok, fn));
    docs.set(docPath(tok), emitFunctionDoc(types, packageName, tok, fn));
  }
  for (const mod of modules.values()) {
    if (mod.folder === 'config' || mod.folder === 'types') {
      throw new Error(`module ${mod.module} collides with the SDK's own ${mod.folder} module`);
    }
    sdk.set(`${mod.folder}/index.ts`, emitModuleIndex(schema, mod));
  }
  sdk.set('index.ts', emitRootIndex(schema, [...modules.keys()]));
  sdk.set('provider.ts', emitProvider(types));
  sdk.set('utilities.ts', emitUtilities());
  sdk.set('config/index.ts', emitConfigIndex());
  sdk.set('config/vars.ts', emitConfigVars(types));
  sdk.set('types/index.ts', emitTypesIndex());
  sdk.set('types/input.ts', emitInputTypes(types));
  sdk.set('types/output.ts', emitOutputTypes(types));
  docs.set('README.md', emitDocsIndex(schema, packageName, resources, functions));

  const prettier = options.prettierConfigFile ? await resolveConfig(options.prettierConfigFile) : null;
  for (const [path, code] of sdk) {
    sdk.set(path, await format(code, { ...prettier, parser: 'typescript' }));
  }
  return { sdk: sorted(sdk), docs: sorted(docs) };
}

function sorted(map: Map<string, string>): Map<string, string> {
  return new Map([...map.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
