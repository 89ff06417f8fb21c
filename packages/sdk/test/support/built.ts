// The SDK as users get it: the compiled JavaScript in dist/ (`npm test` builds it first, see the
// pretest script), typed by the generated sources. The lazy getters of the module indexes rely
// on tsc's CommonJS output, which is why tests load dist/ rather than src/ through tsx.
import { cpSync, existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const packageDir = resolve(__dirname, '../..');
export const distDir = resolve(packageDir, 'dist');
export const repoModules = resolve(packageDir, '../../node_modules');

function assertBuilt(): void {
  if (!existsSync(resolve(distDir, 'index.js'))) {
    throw new Error('packages/sdk/dist is missing: run `npm run build -w @ocikit/oci` first');
  }
}

export function loadBuiltSdk(): typeof import('../../src') {
  assertBuilt();
  return require(distDir) as typeof import('../../src');
}

/**
 * Installs the built package into `<root>/node_modules/@ocikit/oci` as npm would (package.json,
 * pulumi-plugin.json and dist/, without source maps), with only @pulumi/pulumi beside it (and
 * Node's types, which every Pulumi program has). Returns the installed package's folder.
 */
export function installBuiltSdk(root: string): string {
  assertBuilt();
  const pkg = join(root, 'node_modules/@ocikit/oci');
  mkdirSync(pkg, { recursive: true });
  cpSync(join(packageDir, 'package.json'), join(pkg, 'package.json'));
  cpSync(join(packageDir, 'pulumi-plugin.json'), join(pkg, 'pulumi-plugin.json'));
  cpSync(distDir, join(pkg, 'dist'), { recursive: true, filter: (src) => !src.endsWith('.map') });
  mkdirSync(join(root, 'node_modules/@pulumi'), { recursive: true });
  mkdirSync(join(root, 'node_modules/@types'), { recursive: true });
  symlinkSync(join(repoModules, '@pulumi/pulumi'), join(root, 'node_modules/@pulumi/pulumi'), 'dir');
  symlinkSync(join(repoModules, '@types/node'), join(root, 'node_modules/@types/node'), 'dir');
  return pkg;
}
