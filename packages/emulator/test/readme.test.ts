import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AIServiceLanguageClient } from 'oci-ailanguage';
import { DisasterRecoveryClient } from 'oci-disasterrecovery';
import { declaredOperations, supportTable } from '../src/coverage';

/** The operations an official SDK client offers: its methods, less lifecycle and waiter helpers. */
function sdkOperations(client: { prototype: object }): string[] {
  const helpers = new Set([
    'constructor',
    'shutdownCircuitBreaker',
    'closeProvider',
    'close',
    'createWaiters',
    'getWaiters',
  ]);
  return Object.getOwnPropertyNames(client.prototype)
    .filter(
      (name) =>
        !helpers.has(name) && typeof Object.getOwnPropertyDescriptor(client.prototype, name)?.value === 'function',
    )
    .map((name) => name[0].toUpperCase() + name.slice(1))
    .sort();
}

describe('README', () => {
  it('shows the support table the services actually declare (regenerate with npm run support-table)', () => {
    const readme = readFileSync(join(__dirname, '../../../README.md'), 'utf8');
    const table = /<!-- support-table:start -->\n([\s\S]*?)\n<!-- support-table:end -->/.exec(readme);
    assert.ok(table, 'README.md lacks the support-table markers');
    assert.equal(table[1], supportTable());
  });

  it('lists every operation of the official SDK clients, so the table covers both APIs whole', () => {
    const declared = Object.fromEntries(
      declaredOperations().map(({ service, routes }) => [service, routes.operations.map((op) => op.name).sort()]),
    );
    assert.deepEqual(declared['Disaster Recovery'], sdkOperations(DisasterRecoveryClient));
    assert.deepEqual(declared['AI Language'], sdkOperations(AIServiceLanguageClient));
  });
});
