import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join, resolve } from 'node:path';
import { parse } from 'yaml';
import { parseProjectConfig, type ProjectConfigType } from './project-config';
import { isRecord, ProjectError, yamlErrorLine } from './project-error';
import { levenshtein } from '@ocikit/pulumi-resource-oci';

export interface Project {
  /** Folder that holds Pulumi.yaml. */
  dir: string;
  name: string;
  main?: string;
  runtimeOptions?: Record<string, unknown>;
  /** Pulumi.yaml's `config:` block: the project's keys and other namespaces' values. */
  config?: Record<string, ProjectConfigType>;
  /** Where the stack files are (`stackConfigDir`), when not beside Pulumi.yaml. */
  stackConfigDir?: string;
  /**
   * The project file's extension, which the stack files take (`.json` for a `Pulumi.json` project,
   * `.yml` for a `Pulumi.yml` one, as Pulumi's ProjectStackPath names them); `.yaml` when not given.
   */
  fileExt?: string;
  /** Pulumi.yaml's `options: {refresh: always}`: preview and up refresh first unless `--refresh=false`. */
  refreshAlways?: boolean;
}

/** The folder of the `Pulumi.<stack>.yaml` files: beside Pulumi.yaml, or the project's `stackConfigDir`. */
export function stackConfigFolder(project: Project): string {
  return project.stackConfigDir ?? project.dir;
}

/**
 * `Pulumi.<stack>.yaml` (`.json` or `.yml` beside a `Pulumi.json` or `Pulumi.yml`, as Pulumi's
 * ProjectStackPath takes the project file's extension): beside Pulumi.yaml, or in the project's `stackConfigDir`.
 */
export function stackConfigPath(project: Project, stack: string): string {
  return join(stackConfigFolder(project), `Pulumi.${stack}${project.fileExt ?? '.yaml'}`);
}

/**
 * `stackConfigDir`, or the older `config: <folder>` form of it (Pulumi's Project.Validate refuses
 * both at once), relative to the project's folder.
 */
function readStackConfigDir(file: string, doc: Record<string, unknown>): string | undefined {
  const legacy = typeof doc.config === 'string' ? doc.config : undefined;
  if (legacy !== undefined && doc.stackConfigDir !== undefined)
    throw new ProjectError(
      `${file}: Should not use both config and stackConfigDir to define the stack config directory. Use only stackConfigDir instead.`,
    );
  const dir = doc.stackConfigDir ?? legacy;
  if (dir === undefined) return undefined;
  if (typeof dir !== 'string' || !dir) throw new ProjectError(`${file}: 'stackConfigDir' must be a folder path`);
  return resolve(dirname(file), dir);
}

/**
 * The project file names Pulumi looks for in a folder, in its order (the marshallers' extensions,
 * sdk/go/common/encoding Exts: .json, .yaml, .yml); the stack files take the same extension.
 */
const PROJECT_FILES = ['Pulumi.json', 'Pulumi.yaml', 'Pulumi.yml'];

/** A `.json` project or stack file, which Pulumi reads and writes with its JSON marshaller. */
export const isJsonFile = (file: string) => extname(file) === '.json';

/** Finds the project file (Pulumi.json, .yaml or .yml) in `start` or a parent folder, as Pulumi's DetectProjectPathFrom does. */
export function findProjectFile(start: string): string {
  const file = findUp(start, PROJECT_FILES);
  if (file) return file;
  throw new ProjectError(`no Pulumi.yaml project file found (searching upwards from ${resolve(start)})`);
}

/**
 * The path of the first of `names` that `exists` in `start`'s folder or, failing that, in the
 * nearest folder above it that has one; undefined when none up to the root does.
 */
export function findUp(
  start: string,
  names: readonly string[],
  exists: (path: string) => boolean = isFile,
): string | undefined {
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    for (const name of names) if (exists(join(dir, name))) return join(dir, name);
    if (dirname(dir) === dir) return undefined;
  }
}

export function readProject(start: string): Project {
  const file = findProjectFile(start);
  let doc: unknown;
  try {
    // Without a UTF-8 byte order mark, as Pulumi's loaders read it (readFileStripUTF8BOM).
    const text = readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
    doc = isJsonFile(file) ? JSON.parse(text) : parse(text);
  } catch (error) {
    throw new ProjectError(`${file}: ${yamlErrorLine((error as Error).message)}`);
  }
  if (!isRecord(doc))
    throw new ProjectError(`${file}: expected a ${isJsonFile(file) ? 'JSON object' : 'YAML mapping'}`);
  // ValidateProject's words (sdk/go/common/workspace/project.go), with the key findClosestKey
  // finds for a misspelt name: the first, in sorted order, within Levenshtein distance 2, case ignored.
  if (!('name' in doc)) {
    const closest = Object.keys(doc)
      .sort()
      .map((key) => ({ key, d: levenshtein('name', key.toLowerCase()) }))
      .filter(({ d }) => d <= 2)
      .reduce<{ key: string; d: number } | undefined>((best, k) => (!best || k.d < best.d ? k : best), undefined);
    throw new ProjectError(
      `${file}: project is missing a 'name' attribute${closest ? `; found '${closest.key}' instead` : ''}`,
    );
  }
  if (typeof doc.name !== 'string' || !doc.name)
    throw new ProjectError(`${file}: project is missing a non-empty string 'name' attribute`);
  const runtime = doc.runtime;
  const runtimeName = isRecord(runtime) ? runtime.name : runtime;
  if (runtimeName === undefined) throw new ProjectError(`${file}: project is missing a 'runtime' attribute`);
  if (runtimeName !== 'nodejs')
    throw new ProjectError(`${file}: runtime '${String(runtimeName)}' is not supported (ocikit runs nodejs programs)`);
  const options = isRecord(runtime) && isRecord(runtime.options) ? runtime.options : undefined;
  if (doc.main !== undefined && typeof doc.main !== 'string') throw new ProjectError(`${file}: 'main' must be a path`);
  const stackConfigDir = readStackConfigDir(file, doc);
  const config = typeof doc.config === 'string' ? undefined : parseProjectConfig(file, doc.name, doc.config);
  return {
    dir: dirname(file),
    name: doc.name,
    main: doc.main as string | undefined,
    runtimeOptions: options,
    ...(config ? { config } : {}),
    ...(stackConfigDir ? { stackConfigDir } : {}),
    fileExt: extname(file),
    ...(isRecord(doc.options) && doc.options.refresh === 'always' ? { refreshAlways: true } : {}),
  };
}

const MODULE_EXTENSIONS = ['', '.ts', '.js', '.cjs', '.mjs', '.json'];

/**
 * Checks, before the program starts, that its entry point is there: `main` exactly (a file or a
 * folder: the runner lstat's it), then a folder's package.json `main` or `index`, which the runner
 * requires with Node's extensions. A missing one is a one-line reason instead of the runner's stack trace
 * (and the runner's diagnosis of it, which can spend a minute walking node_modules). With the
 * runtime option `typescript: false` the runner registers no ts-node (sdk/nodejs/cmd/run/run.ts),
 * so a `.ts` file is no module to find.
 */
export function checkEntryPoint(project: Project): void {
  const typescript = project.runtimeOptions?.typescript !== false;
  const extensions = typescript ? MODULE_EXTENSIONS : MODULE_EXTENSIONS.filter((ext) => ext !== '.ts');
  const target = resolve(project.dir, project.main ?? '.');
  if (!existsSync(target))
    throw new ProjectError(`the program's main '${project.main}' (Pulumi.yaml) does not exist in ${project.dir}`);
  if (!statSync(target).isDirectory()) return;
  let entry = 'index';
  const pkgFile = join(target, 'package.json');
  if (existsSync(pkgFile)) {
    try {
      const pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as { main?: unknown };
      if (typeof pkg.main === 'string' && pkg.main) entry = pkg.main;
    } catch (error) {
      throw new ProjectError(`${pkgFile}: ${(error as Error).message.split('\n')[0]}`);
    }
  }
  // Node's require of the folder: the package.json `main` (as a file, or a folder's index), else,
  // when that is missing, the folder's own index, which @pulumi/pulumi then runs with its
  // warning "Could not find entry point '<main>' specified in package.json" (`npm init` writes
  // `main: index.js` beside an index.ts).
  const base = resolve(target, entry);
  const found = [base, join(base, 'index'), join(target, 'index')].some((b) =>
    extensions.some((ext) => isFile(b + ext)),
  );
  const index = typescript ? 'index.ts or index.js' : 'index.js';
  if (!found)
    throw new ProjectError(
      `no program to run in ${target}: ${entry === 'index' ? `no ${index}` : `package.json main '${entry}' does not exist, nor an ${index}`} (${typescript ? "set 'main' in Pulumi.yaml" : 'runtime option typescript is false: compile the program, or remove the option'})`,
    );
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
