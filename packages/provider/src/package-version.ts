// The package's version, read from its package.json: what GetPluginInfo answers and what the
// plugin's OCI requests carry in their user agent.
import * as fs from 'node:fs';
import * as path from 'node:path';

let cached: string | undefined;

export function packageVersion(): string {
  cached ??= (JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')) as { version: string })
    .version;
  return cached;
}
