import type { SymmetricCrypter } from '../secrets/passphrase';
import { stackCrypter } from '../secrets/stack-crypter';
import { containsSecure, mapSecure } from './config-path';
import type { Project } from './project';
import { applyProjectConfig } from './project-config';
import { ProjectError } from './project-error';
import { StackConfigFile } from './stack-config';
import { configJson } from './config-json';

export interface StackConfig {
  file: StackConfigFile;
  /** Every value in plain text, keyed `<namespace>:<key>`. */
  values: Record<string, string>;
  secretKeys: string[];
  crypter: SymmetricCrypter;
}

/**
 * Reads Pulumi.<stack>.yaml, decrypts its secure values with the stack's passphrase, and merges in
 * Pulumi.yaml's project config (defaults and values; stack values win) after Pulumi's checks.
 */
export function loadStackConfig(project: Project, stack: string, env: NodeJS.ProcessEnv = process.env): StackConfig {
  const file = StackConfigFile.open(project, stack);
  // Values from Pulumi ESC environments need Pulumi Cloud: as Pulumi's DIY backend (openStackEnv),
  // refuse the run rather than run the program without them.
  if (file.environment !== undefined)
    throw new ProjectError(
      `${file.path} imports ESC environments (environment: ${JSON.stringify(file.environment)}), which need Pulumi Cloud: ` +
        'backend ocikit does not support environments (move their values into config:)',
    );
  const crypter = stackCrypter(file, env);
  const values: Record<string, string> = {};
  const secretKeys: string[] = [];
  const objects = new Set<string>();
  for (const [key, entry] of file.entries()) {
    const object = file.object(key);
    if (object !== undefined) objects.add(key);
    if (object !== undefined && containsSecure(object)) {
      // An object holding a secure value (`config set --path --secret`) is passed decrypted, and the
      // whole key is secret, as Pulumi does.
      values[key] = configJson(mapSecure(object, (c) => crypter.decrypt(c)));
      secretKeys.push(key);
      continue;
    }
    values[key] = entry.secure ? crypter.decrypt(entry.value) : entry.value;
    if (entry.secure) secretKeys.push(key);
  }
  const merged = applyProjectConfig(project.name, project.config, stack, { values, secretKeys, objects });
  return { file, values: merged, secretKeys, crypter };
}
