import { AdjustableClock } from './core/clock';
import { loadOrCreateCredentials } from './core/credentials';
import type { ServiceRoutes } from './http/operation';
import { ObjectStore } from './services/common/objects';
import { SERVICES } from './services/registry';
import { SqliteStore } from './store/sqlite-store';

/**
 * The README's support table, generated from the operations the registered services declare
 * (services/registry.ts), so the table cannot drift from the code (`npm run support-table`; a
 * test compares it with the README).
 */

/** Every operation the emulator declares, with its service's name and version path. */
export function declaredOperations(): Array<{ service: string; routes: ServiceRoutes }> {
  const store = new SqliteStore(':memory:');
  try {
    const clock = new AdjustableClock();
    const deps = {
      store,
      clock,
      settings: { homeRegion: 'us-ashburn-1', transitionDelayMs: 0, trainingDurationMs: 0, deletedRetentionMs: 0 },
      credentials: loadOrCreateCredentials(store),
      objects: new ObjectStore(store, clock),
    };
    return SERVICES.map(({ name, create }) => ({ service: name, routes: create(deps).routes }));
  } finally {
    store.close();
  }
}

export function supportTable(): string {
  const lines = ['| service | operation | method and path | emulator |', '|---|---|---|---|'];
  for (const { service, routes } of declaredOperations()) {
    const operations = [...routes.operations].sort((a, b) => Number(!a.handler) - Number(!b.handler));
    for (const op of operations) {
      const path = `${routes.basePath}${op.path}`.replace(/:(\w+)/g, '{$1}');
      lines.push(
        `| ${service} | ${op.name} | \`${op.method} ${path}\` | ${op.handler ? 'yes' : '501 MethodNotImplemented'} |`,
      );
    }
  }
  return lines.join('\n');
}

if (require.main === module) console.log(supportTable());
