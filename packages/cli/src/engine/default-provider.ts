/**
 * Pulumi's providers.IsDefaultProvider: a provider resource whose name starts with "default".
 * Its steps are internal to Pulumi: neither shown in the plan nor counted in the summary.
 * (Dependency-free, so the display can use it without loading the engine.)
 */
export function isDefaultProvider(urn: string): boolean {
  const parts = urn.split('::');
  const type = (parts[2] ?? '').split('$').pop() ?? '';
  return type.startsWith('pulumi:providers:') && parts.slice(3).join('::').startsWith('default');
}
