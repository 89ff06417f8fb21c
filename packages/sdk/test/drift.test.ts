// The drift check: a fresh generation from packages/provider/schema.json, written to a scratch
// directory, must equal the committed SDK sources (packages/sdk/src) and reference pages
// (docs/reference). On failure the message lists every differing file.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, it } from 'node:test';
import { defaultPaths, runGenerator } from '../codegen/main';
import { listFiles } from '../codegen/write';

const scratch = mkdtempSync(join(tmpdir(), 'ocikit-sdk-drift-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

async function differences(fresh: string, committed: string, label: string): Promise<string[]> {
  const [a, b] = [await listFiles(fresh), await listFiles(committed)];
  const out: string[] = [];
  for (const f of a) {
    if (!b.includes(f)) out.push(`${label}/${f} (missing: not committed)`);
    else if (readFileSync(join(fresh, f), 'utf8') !== readFileSync(join(committed, f), 'utf8')) {
      out.push(`${label}/${f} (differs)`);
    }
  }
  for (const f of b) if (!a.includes(f)) out.push(`${label}/${f} (stale: the schema no longer produces it)`);
  return out;
}

it('the committed SDK sources and reference pages equal a fresh generation from schema.json', async () => {
  const fresh = { schema: defaultPaths.schema, out: join(scratch, 'src'), docs: join(scratch, 'docs') };
  await runGenerator(fresh);
  const diff = [
    ...(await differences(fresh.out, defaultPaths.out, 'packages/sdk/src')),
    ...(await differences(fresh.docs, defaultPaths.docs, 'docs/reference')),
  ];
  assert.deepEqual(
    diff,
    [],
    `generated files differ from schema.json; run \`npm run generate\` and commit:\n  ${diff.join('\n  ')}`,
  );
  assert.ok(resolve(defaultPaths.schema).endsWith('packages/provider/schema.json'));
});
