import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parse } from 'yaml';

/** A user's mistake in the project files: reported as one line, never a stack trace. */
export class ProjectError extends Error {}

export interface Project {
  /** Folder that holds Pulumi.yaml. */
  dir: string;
  name: string;
  main?: string;
  runtimeOptions?: Record<string, unknown>;
}

/** Finds Pulumi.yaml (or Pulumi.yml) in `start` or a parent folder, as Pulumi does. */
export function findProjectFile(start: string): string {
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    for (const name of ['Pulumi.yaml', 'Pulumi.yml']) if (existsSync(join(dir, name))) return join(dir, name);
    if (dirname(dir) === dir) break;
  }
  throw new ProjectError(`no Pulumi.yaml project file found (searching upwards from ${resolve(start)})`);
}

export function readProject(start: string): Project {
  const file = findProjectFile(start);
  let doc: unknown;
  try {
    doc = parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ProjectError(`${file}: ${(error as Error).message.split('\n')[0]}`);
  }
  if (!isRecord(doc)) throw new ProjectError(`${file}: expected a YAML mapping`);
  if (typeof doc.name !== 'string' || !doc.name) throw new ProjectError(`${file}: project is missing a 'name'`);
  const runtime = doc.runtime;
  const runtimeName = isRecord(runtime) ? runtime.name : runtime;
  if (runtimeName !== 'nodejs')
    throw new ProjectError(`${file}: runtime '${String(runtimeName)}' is not supported (ocikit runs nodejs programs)`);
  const options = isRecord(runtime) && isRecord(runtime.options) ? runtime.options : undefined;
  if (doc.main !== undefined && typeof doc.main !== 'string') throw new ProjectError(`${file}: 'main' must be a path`);
  return { dir: dirname(file), name: doc.name, main: doc.main as string | undefined, runtimeOptions: options };
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
