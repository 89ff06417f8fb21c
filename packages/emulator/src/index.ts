/**
 * @ocikit/emulator's public API: start an emulator in-process.
 *
 *   const emulator = await startEmulator({ inMemory: true, seed: 'sandbox', transitionDelaySeconds: 0 });
 *   // emulator.url, emulator.configFile, emulator.sandbox …
 *   await emulator.close();
 */
export { startEmulator } from './server';
export type { EmulatorOptions, RunningEmulator, SandboxIds } from './server';
export { AdjustableClock } from './core/clock';
export { AdminClient, AdminError, type FaultSpec, type NewTenancyIdentity, type NewUserIdentity } from './admin/client';
export type { AuthMode } from './http/authentication';
