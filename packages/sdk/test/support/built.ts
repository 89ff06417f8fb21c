// The SDK as users get it: the compiled JavaScript in dist/ (`npm test` builds it first, see the
// pretest script), typed by the generated sources. The lazy getters of the module indexes rely
// on tsc's CommonJS output, which is why tests load dist/ rather than src/ through tsx.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

export const packageDir = resolve(__dirname, '../..');
export const distDir = resolve(packageDir, 'dist');

export function loadBuiltSdk(): typeof import('../../src') {
  if (!existsSync(resolve(distDir, 'index.js'))) {
    throw new Error('packages/sdk/dist is missing: run `npm run build -w @ocikit/oci` first');
  }
  return require(distDir) as typeof import('../../src');
}
