import * as path from 'node:path';

/** Absolute path of the package schema (the single source of truth the SDK is generated from). */
export const schemaPath = path.join(__dirname, '..', 'schema.json');

/** The wire codec's layouts for the engine side of the plugin's protocols (ocikit's engine uses them). */
export { ENGINE_LAYOUTS, engineCodec, type EngineMessage } from './engine-codec';
/** The environment variables a provider configuration key is read from (the CLI's cloud decision). */
export { configEnvNames } from './config';
export { levenshtein } from './levenshtein';
export { applyIgnoreChanges, parsePath, resetPaths } from './property-path';

/** ocikit's addition to the protocol: another provider instance in a running plugin (see ./instances). */
export {
  CREATE_KEY_HEADER,
  PREVIEW_ONLY_ENV,
  START_PROVIDER_PATH,
  startProviderCodec,
  type StartProviderResponse,
} from './instances';
