#!/usr/bin/env node
// Fails when the TypeScript modules of any workspace import each other in a cycle, counting
// `import type` too: a type-only cycle still means two modules own each other's pieces. Imports
// are read with a regular expression (static `import … from`, `export … from`, `import('…')`,
// `require('…')` with a relative specifier), which the repository's Prettier-formatted code keeps
// reliable, and cycles are found as strongly connected components (Tarjan).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const skip = new Set(['node_modules', 'dist', '.git', '.ocikit']);
// Generated sources (first line says "generated") are the generator's concern, not a module graph to police.
const isGenerated = (text) => /generated/i.test(text.split('\n', 1)[0]);

function walk(dir, out) {
  for (const name of readdirSync(dir)) {
    if (skip.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (/\.(ts|mts|cts)$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

function resolveImport(from, specifier) {
  const base = resolve(dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.mts`, `${base}.cts`, join(base, 'index.ts')]) {
    if (/\.(ts|mts|cts)$/.test(candidate) && existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

const pattern =
  /(?:^|[\s;])(?:import|export)\s[^'";]*?\sfrom\s*['"](\.[^'"]*)['"]|(?:^|[\s;])import\s*['"](\.[^'"]*)['"]|(?:import|require)\(\s*['"](\.[^'"]*)['"]\s*\)/g;

const files = walk(join(root, 'packages'), []).concat(
  existsSync(join(root, 'scripts')) ? walk(join(root, 'scripts'), []) : [],
);
const graph = new Map();
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  if (isGenerated(text)) continue;
  const edges = new Set();
  for (const match of text.matchAll(pattern)) {
    const target = resolveImport(file, match[1] ?? match[2] ?? match[3]);
    if (target && target !== file) edges.add(target);
  }
  graph.set(file, [...edges]);
}

// Tarjan's strongly connected components, iterative so deep graphs cannot overflow the stack.
let index = 0;
const indices = new Map();
const low = new Map();
const onStack = new Set();
const stack = [];
const cycles = [];
for (const start of graph.keys()) {
  if (indices.has(start)) continue;
  const work = [[start, 0]];
  indices.set(start, index);
  low.set(start, index++);
  stack.push(start);
  onStack.add(start);
  while (work.length) {
    const frame = work[work.length - 1];
    const [node, i] = frame;
    const next = (graph.get(node) ?? [])[i];
    if (next !== undefined) {
      frame[1]++;
      if (!graph.has(next)) continue;
      if (!indices.has(next)) {
        indices.set(next, index);
        low.set(next, index++);
        stack.push(next);
        onStack.add(next);
        work.push([next, 0]);
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node), indices.get(next)));
      continue;
    }
    work.pop();
    if (work.length) low.set(work[work.length - 1][0], Math.min(low.get(work[work.length - 1][0]), low.get(node)));
    if (low.get(node) === indices.get(node)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) cycles.push(component);
    }
  }
}

if (cycles.length) {
  console.error(`check-cycles: ${cycles.length} import cycle(s):`);
  for (const component of cycles)
    console.error(
      `  ${component
        .map((f) => relative(root, f))
        .sort()
        .join(' <-> ')}`,
    );
  process.exit(1);
}
console.log(`check-cycles: ${graph.size} modules, no import cycles`);
