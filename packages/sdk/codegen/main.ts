// `npm run generate`: regenerates packages/sdk/src and docs/reference from
// packages/provider/schema.json. Options: --schema <file>, --out <dir> (SDK sources),
// --docs <dir> (reference pages); the defaults are the repository's own paths.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { generate } from './generate';
import { parseSchema } from './schema';
import { writeTree } from './write';

export const packageDir = resolve(__dirname, '..');
export const repoDir = resolve(packageDir, '..', '..');
export const defaultPaths = {
  schema: resolve(repoDir, 'packages/provider/schema.json'),
  out: resolve(packageDir, 'src'),
  docs: resolve(repoDir, 'docs/reference'),
};

export async function runGenerator(paths: typeof defaultPaths): Promise<{ written: number; removed: string[] }> {
  const schema = parseSchema(await readFile(paths.schema, 'utf8'), paths.schema);
  const files = await generate(schema, { prettierConfigFile: resolve(repoDir, '.prettierrc.json') });
  const sdk = await writeTree(paths.out, files.sdk);
  const docs = await writeTree(paths.docs, files.docs);
  return { written: files.sdk.size + files.docs.size, removed: [...sdk.removed, ...docs.removed] };
}

function parseArgs(argv: string[]): typeof defaultPaths {
  const paths = { ...defaultPaths };
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i]?.replace(/^--/, '');
    const value = argv[i + 1];
    if ((key !== 'schema' && key !== 'out' && key !== 'docs') || value === undefined) {
      throw new Error(`unknown argument ${argv[i]}: use --schema <file>, --out <dir>, --docs <dir>`);
    }
    paths[key] = resolve(value);
  }
  return paths;
}

if (require.main === module) {
  runGenerator(parseArgs(process.argv.slice(2))).then(
    ({ written, removed }) => {
      console.log(`generated ${written} files${removed.length ? `, removed ${removed.join(', ')}` : ''}`);
    },
    (err: Error) => {
      console.error(`generate: ${err.message}`);
      process.exit(1);
    },
  );
}
