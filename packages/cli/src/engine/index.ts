// The local Pulumi engine: runs a program through its own @pulumi/pulumi/cmd/run, serves the
// ResourceMonitor and Engine protocols, drives pulumi-resource-oci, and keeps the stack state.
export * from './types';
export { runEngine } from './run-engine';
export { isDefaultProvider } from './default-provider';
export {
  engineVersion,
  openStackState,
  listStacks,
  passphraseSalt,
  type ImportedDeployment,
  type ResourceState,
  type Snapshot,
} from './state';
export {
  addToHistory,
  backupStack,
  readHistory,
  renameHistory,
  unixSeconds,
  updateEnvironment,
  type UpdateInfo,
} from './history';
export { checkSnapshot } from './snapshot-check';
export { separateProtected } from './targets';
export { trace } from './trace';
export { PluginHandover } from './provider-host';
