// A run's provider instances, as Pulumi's provider registry keeps them (pkg/resource/deploy/
// providers/registry.go): each provider resource is a configured instance of pulumi-resource-oci in
// a plugin process of the run's pool, found by its reference (`urn::id`); one the program did not
// register in this run (what a delete or a refresh needs) is configured from the state. The steps
// of the provider resources themselves (registerProvider, default providers) are the Deployment's.
import type { PluginHandover, PluginPool, ProviderPlugin } from './provider-host';
import type { ResourceState } from './state';
import { providerPrefix, splitRef, urnName } from './urn';
import type { Props } from './values';

/** The one package ocikit has a provider plugin for (pulumi-resource-oci). */
export const SERVED_PACKAGE = 'oci';

/** Why a provider of another package cannot run (a `@pulumi/random` resource, a StackReference). */
export function unservedPackage(pkg: string): string {
  return pkg === 'pulumi'
    ? "Pulumi's built-in provider (StackReference, getResource) is not available in ocikit: each program keeps its stacks in its own .ocikit folder, with no backend to read another stack from"
    : `the ${pkg} provider is not available: ocikit runs only the oci provider (pulumi-resource-oci)`;
}

/** Where Pulumi keeps what it records of a provider's plugin in the provider's inputs. */
const INTERNAL_KEY = '__internal';

/**
 * A provider's inputs as Pulumi's resource monitor records them (providers/registry.go
 * SetProviderVersion, SetProviderURL): `version` at the top, and an `__internal` object, holding
 * the pluginDownloadURL if any, whenever either is given. Pulumi writes `"__internal": {}` in
 * every such provider's inputs, and reads an older state's top-level pluginDownloadURL too.
 */
export function withEngineInputs(inputs: Props, version = '', pluginDownloadURL = ''): Props {
  if (!version && !pluginDownloadURL) return inputs;
  const internal = { ...(inputs[INTERNAL_KEY] as Props | undefined) };
  if (pluginDownloadURL) internal.pluginDownloadURL = pluginDownloadURL;
  return { ...inputs, [INTERNAL_KEY]: internal, ...(version ? { version } : {}) };
}

/** providers.filterProviderConfig: the inputs a plugin is given, and a provider's outputs. */
export function filterProviderConfig(inputs: Props): Props {
  if (!(INTERNAL_KEY in inputs)) return inputs;
  const { [INTERNAL_KEY]: internal, ...rest } = inputs;
  void internal;
  return rest;
}

/** Pulumi's checked inputs: the plugin's, with the `__internal` it was not given put back. */
export function withInternal(checked: Props, inputs: Props): Props {
  return INTERNAL_KEY in inputs ? { ...checked, [INTERNAL_KEY]: inputs[INTERNAL_KEY] } : checked;
}

/** What decides whether a resource's provider change replaces it: the configuration, not the plugin. */
export function withoutVersion(inputs: Props): Props {
  const { version, pluginDownloadURL, ...rest } = filterProviderConfig(inputs);
  void version;
  void pluginDownloadURL;
  return rest;
}

export interface ProviderInstance {
  plugin: ProviderPlugin;
  ref: string;
}

export class Providers {
  private readonly instances = new Map<string, Promise<ProviderInstance>>();

  constructor(private readonly pool: PluginPool) {}

  /** A plugin process for a new provider instance (see PluginPool). */
  start(): Promise<ProviderPlugin> {
    return this.pool.take();
  }

  /** Starts the plugin process before the program asks for a provider (see PluginPool.warm). */
  warm(): void {
    this.pool.warm();
  }

  /** A provider the program registered in this run, under its ref. */
  set(ref: string, instance: Promise<ProviderInstance>): void {
    this.instances.set(ref, instance);
  }

  /**
   * The instance of a provider ref: the one registered in this run (under the ref, or under the
   * URN an alias moved it to: `aliased`), else one configured from the state (`current`).
   */
  instance(
    resolved: string,
    aliased: ReadonlyMap<string, string>,
    current: readonly ResourceState[],
  ): Promise<ProviderInstance> {
    const existing = this.instances.get(resolved);
    if (existing) return existing;
    // A provider the program did not register in this run: configure it from the state, as the
    // engine does for deletes and refreshes.
    const [oldPurn, pid] = splitRef(resolved);
    const purn = aliased.get(oldPurn) ?? oldPurn;
    const moved = this.instances.get(`${purn}::${pid}`);
    if (moved) return moved;
    const state = current.find((r) => r.urn === purn && r.id === pid);
    if (!state) throw new Error(`provider ${resolved} is not known to the stack`);
    const instance = (async () => {
      const plugin = await this.start();
      await plugin.configure(
        state.type.slice(providerPrefix.length),
        purn,
        urnName(purn),
        pid,
        filterProviderConfig(state.inputs),
      );
      return { plugin, ref: resolved };
    })();
    this.instances.set(resolved, instance);
    return instance;
  }

  /** Cancels what the run's plugins are doing. */
  async cancel(): Promise<void> {
    await Promise.all(this.pool.taken.map((p) => p.cancel()));
  }

  /** Ends the run's plugins, or (`handover`) leaves them running for the command's next run. */
  async close(handover?: PluginHandover): Promise<void> {
    if (!handover) {
      await Promise.all([...this.pool.taken.map((p) => p.stop()), this.pool.close()]);
      return;
    }
    handover.keep([...this.pool.taken, ...(await this.pool.release())]);
  }
}
