// Writes a generated file tree and removes generated files the schema no longer produces. Only
// files whose first line is the generator's header are removed: hand-written files stay.
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { HEADER_LINE, MARKDOWN_HEADER_LINE } from './header';

export async function writeTree(root: string, files: Map<string, string>): Promise<{ removed: string[] }> {
  const removed: string[] = [];
  for (const path of await listFiles(root)) {
    if (files.has(path)) continue;
    const first = (await readFile(join(root, path), 'utf8')).split('\n', 1)[0];
    if (first === HEADER_LINE || first === MARKDOWN_HEADER_LINE) {
      await rm(join(root, path));
      removed.push(path);
    }
  }
  for (const [path, content] of files) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
  return { removed };
}

/** Every file under root as a path relative to it ('/'-separated), sorted; [] when root is absent. */
export async function listFiles(root: string): Promise<string[]> {
  let entries: string[];
  try {
    entries = (await readdir(root, { recursive: true, withFileTypes: true }))
      .filter((e) => e.isFile())
      .map((e) => relative(root, join(e.parentPath, e.name)).split('\\').join('/'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  return entries.sort();
}
