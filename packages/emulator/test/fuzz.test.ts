import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { SandboxIds } from '../src';
import { declaredOperations } from '../src/coverage';
import { regionOfOcid } from '../src/core/regions';
import { startTestEmulator, type TestEmulator } from './support/emulator';
import { prng } from './support/prng';
import { signedFetch } from './support/signed-fetch';

/**
 * Schema-guided fuzzing of every implemented operation: requests built from each operation's
 * own request schema, with real ids from the sandbox and from earlier responses, and with
 * random corruptions (wrong types, nulls, huge or odd strings, out-of-range numbers). A client's
 * mistake must always be a 4xx in OCI's error form, never a 500. Deterministic (seeded): longer
 * runs with `FUZZ_ITERATIONS=600 FUZZ_SEED=n node --import tsx --test test/fuzz.test.ts`.
 */

const ITERATIONS_PER_OPERATION = Number(process.env.FUZZ_ITERATIONS ?? 40);

type Random = ReturnType<typeof prng>;

const ODD_STRINGS = [
  '',
  ' ',
  'x'.repeat(10_000),
  '💥\u0000\u202e',
  '../../etc/passwd',
  '%00',
  'null',
  '{"a":1}',
  'ocid1.',
  'ocid1.drplan.oc1..',
];

function corrupt(random: Random): unknown {
  return random.pick([
    null,
    -1,
    0,
    2 ** 53,
    1.5,
    true,
    'text',
    [],
    {},
    [null],
    { nested: [1, 'two'] },
    random.pick(ODD_STRINGS),
  ]);
}

/**
 * Real ids that fit a field: `drProtectionGroupId` → drprotectiongroup OCIDs, `sourcePlanId` →
 * any *plan* OCID, `modelId` → ailanguagemodel OCIDs; the whole pool when nothing fits.
 */
function idsFor(name: string, pool: string[]): string[] {
  const wanted = name.replace(/Ids?$/, '').toLowerCase();
  const lastWord = (/[A-Z][a-z]+(?=Ids?$)/.exec(name)?.[0] ?? wanted).toLowerCase();
  for (const part of [wanted, lastWord]) {
    const fitting = pool.filter((id) => id.split('.')[1]?.includes(part));
    if (fitting.length) return fitting;
  }
  return pool;
}

/** The parts of a request schema the generator reads. */
interface SchemaView {
  type?: string | readonly string[];
  enum?: readonly unknown[];
  const?: unknown;
  required?: readonly string[];
  properties?: Readonly<Record<string, SchemaView>>;
  additionalProperties?: boolean | SchemaView;
  items?: SchemaView;
  minimum?: number;
  maximum?: number;
  pattern?: string;
}

/** A value for `schema`, mostly valid, sometimes corrupted; OCIDs come from the pool of real ids. */
function generate(schema: SchemaView | undefined, random: Random, pool: string[], depth = 0, name = ''): unknown {
  if (!schema || depth > 6 || random.chance(0.06)) return corrupt(random);
  if (schema.enum) return random.chance(0.9) ? random.pick(schema.enum) : 'NOT_A_VALUE';
  if (schema.const !== undefined) return schema.const;
  switch (schema.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const required = new Set<string>(schema.required ?? []);
      for (const [name, property] of Object.entries(schema.properties ?? {})) {
        if (required.has(name) ? random.chance(0.95) : random.chance(0.5))
          out[name] = generate(property, random, pool, depth + 1, name);
      }
      if (schema.additionalProperties && typeof schema.additionalProperties === 'object' && random.chance(0.3)) {
        out[`key${random.int(0, 9)}`] = generate(schema.additionalProperties, random, pool, depth + 1);
      }
      return out;
    }
    case 'array':
      return Array.from({ length: random.int(0, 3) }, () => generate(schema.items, random, pool, depth + 1, name));
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? -5;
      const max = schema.maximum ?? 5000;
      return random.chance(0.85)
        ? random.int(min, Math.min(max, min + 20))
        : random.pick([min - 1, max + 1, 0.5, -(2 ** 31)]);
    }
    case 'boolean':
      return random.chance(0.5);
    case 'string':
      if (schema.pattern?.includes('ocid1') || /Ids?$/.test(name) || random.chance(0.3)) {
        return random.chance(0.85) && pool.length
          ? random.pick(idsFor(name, pool))
          : `ocid1.thing.oc1..${random.int(0, 1e6)}`;
      }
      return random.chance(0.85) ? `name-${random.int(0, 999)}` : random.pick(ODD_STRINGS);
    default:
      return random.chance(0.5) && pool.length ? random.pick(idsFor(name, pool)) : corrupt(random);
  }
}

function collectOcids(value: unknown, into: Set<string>): void {
  if (typeof value === 'string' && value.startsWith('ocid1.')) into.add(value);
  else if (Array.isArray(value)) value.forEach((v) => collectOcids(v, into));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => collectOcids(v, into));
}

describe('fuzzing every operation with schema-guided requests', () => {
  let t: TestEmulator;
  let ids = new Set<string>();
  before(async () => {
    t = await startTestEmulator();
  });
  after(() => t.close());

  /** A fresh sandbox plus a plan and an endpoint in it, so every operation can reach its success path. */
  async function freshWorld(): Promise<void> {
    await t.admin('POST', '/reset');
    const sandbox = await t.admin<SandboxIds>('POST', '/seed', { seed: 'sandbox' });
    const dr = sandbox.disasterRecovery;
    const plan = await signedFetch(t.identity, `${t.url}/r/${dr.standbyRegion}/20220125/drPlans`, {
      method: 'POST',
      body: JSON.stringify({
        displayName: 'fuzz-plan',
        type: 'SWITCHOVER',
        drProtectionGroupId: dr.standbyProtectionGroupId,
      }),
    });
    const endpoint = await signedFetch(t.identity, `${t.url}/20221001/endpoints`, {
      method: 'POST',
      body: JSON.stringify({
        compartmentId: sandbox.compartmentId,
        modelId: sandbox.aiLanguage.customModelIds.textClassification,
      }),
    });
    assert.equal(plan.status, 200);
    assert.equal(endpoint.status, 200);
    ids = new Set();
    collectOcids(
      [
        sandbox,
        await plan.json(),
        await endpoint.json(),
        plan.headers.get('opc-work-request-id'),
        endpoint.headers.get('opc-work-request-id'),
      ],
      ids,
    );
  }

  for (const { service, routes } of declaredOperations()) {
    for (const operation of routes.operations.filter((op) => op.handler)) {
      it(`${service} ${operation.name} never answers 500`, async () => {
        await freshWorld();
        const random = prng(
          [...operation.name].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, Number(process.env.FUZZ_SEED ?? 7)),
        );
        for (let i = 0; i < ITERATIONS_PER_OPERATION; i++) {
          const pool = [...ids];
          const path = operation.path.replace(/:(\w+)/g, (_, param: string) =>
            encodeURIComponent(
              random.chance(0.85) && pool.length
                ? random.pick(idsFor(param, pool))
                : String(random.pick(ODD_STRINGS) || 'x'),
            ),
          );
          const query = generate(
            (operation.schema?.querystring ?? { type: 'object' }) as SchemaView,
            random,
            pool,
          ) as Record<string, unknown>;
          const search = new URLSearchParams();
          if (query && typeof query === 'object' && !Array.isArray(query)) {
            for (const [name, value] of Object.entries(query)) {
              for (const v of Array.isArray(value) ? value : [value])
                search.append(name, typeof v === 'string' ? v : JSON.stringify(v));
            }
          }
          const hasBody = operation.method === 'POST' || operation.method === 'PUT';
          const body = hasBody
            ? random.chance(0.05)
              ? '{"broken json'
              : JSON.stringify(generate((operation.schema?.body ?? { type: 'object' }) as SchemaView, random, pool))
            : undefined;
          // Mostly the region of the first regional id in the request (where it can be found).
          const home = t.emulator.region;
          const idRegion = regionOfOcid(
            /ocid1\.[a-z]+\.oc1\.[a-z]+\.[a-z0-9]+/.exec(`${decodeURIComponent(path)} ${body ?? ''}`)?.[0] ?? '',
          );
          const target = random.chance(0.85) ? idRegion : random.pick(['us-phoenix-1', 'eu-frankfurt-1', 'nowhere-1']);
          const region = target && target !== home ? `/r/${target}` : '';
          const url = `${t.url}${region}${routes.basePath}${path}${search.size ? `?${search}` : ''}`;
          const response = await signedFetch(t.identity, url, { method: operation.method, body });
          const text = await response.text();
          const where = `${operation.method} ${url.slice(0, 300)}\nbody: ${body?.slice(0, 1000)}\nanswer: ${response.status} ${text.slice(0, 300)}`;
          assert.ok(response.status < 500, `server error for ${where}`);
          assert.ok(response.headers.get('opc-request-id'), `no opc-request-id for ${where}`);
          if (response.status >= 400) {
            const error = JSON.parse(text) as { code: unknown; message: unknown };
            assert.equal(typeof error.code, 'string', where);
            assert.equal(typeof error.message, 'string', where);
          } else {
            collectOcids([text ? JSON.parse(text) : undefined, response.headers.get('opc-work-request-id')], ids);
          }
        }
      });
    }
  }
});
