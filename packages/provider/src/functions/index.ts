// The invokes, with pulumi-oci's tokens, arguments and result shapes (taken from schema.json).
import { createHash } from 'node:crypto';
import type { Clients } from '../clients';
import { describeError, ProviderError } from '../errors';
import { packageSchema, shapeObject, withZeroValues } from '../schema';
import type { Props } from '../wire';
import type { Failure } from '../resources/resource';

interface InvokeContext {
  clients: Clients;
  signal: AbortSignal;
}
type Result = { outputs: Props } | { failures: Failure[] };
interface Page<T> {
  items: T[];
  next?: string;
}

async function all<T>(fetch: (page?: string) => Promise<Page<T>>): Promise<T[]> {
  const items: T[] = [];
  let page: string | undefined;
  do {
    const r = await fetch(page);
    items.push(...r.items);
    page = r.next;
  } while (page);
  return items;
}

function syntheticId(token: string, args: Props): string {
  // Terraform gives data sources a hash id; ours is stable for the same arguments.
  return `${token.split(':').pop()}-${createHash('sha1').update(JSON.stringify(args)).digest('hex').slice(0, 16)}`;
}

interface Filter {
  name: string;
  values: string[];
  regex?: boolean;
}
const camel = (s: string): string => s.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/**
 * A filter value as a test of a string: equality, or with `regex` a regular expression, which
 * matches nothing when it does not compile, as in pulumi-oci (terraform-provider-oci tfresource
 * ApplyFilters: a `regexp.Compile` error is logged and the value matches no item).
 */
function matcher(want: string, regex: boolean | undefined): (candidate: string) => boolean {
  if (!regex) return (c) => c === want;
  try {
    const re = new RegExp(want);
    return (c) => re.test(c);
  } catch {
    return () => false;
  }
}

const GO_BOOLEANS: Record<string, boolean> = {
  ...Object.fromEntries(['1', 't', 'T', 'TRUE', 'true', 'True'].map((s) => [s, true])),
  ...Object.fromEntries(['0', 'f', 'F', 'FALSE', 'false', 'False'].map((s) => [s, false])),
};
const INT64 = [-(2n ** 63n), 2n ** 63n - 1n] as const;

/**
 * Whether an item's value passes one filter, as terraform-provider-oci's orComparator
 * (tfresource/filters.go) decides it by the value's kind, the filter's values in order: a string
 * against each value (equal, or `regex`); each string of a list of strings; a boolean against
 * each value read by Go's strconv.ParseBool, a whole number by ParseInt (base 10, int64) and any
 * other number as a decimal (ParseFloat), equal as values (never as a regex) — a value that does not parse
 * fails the filter there and then; anything else (a map such as the tags, a list of objects) never
 * passes.
 */
function passes(value: unknown, values: string[], tests: Array<(candidate: string) => boolean>): boolean {
  for (const [i, want] of values.entries()) {
    if (typeof value === 'string') {
      if (tests[i]!(value)) return true;
    } else if (Array.isArray(value)) {
      if (value.every((v) => typeof v === 'string') && value.some((v) => tests[i]!(v as string))) return true;
    } else if (typeof value === 'boolean') {
      if (!(want in GO_BOOLEANS)) return false;
      if (GO_BOOLEANS[want] === value) return true;
    } else if (typeof value === 'number' && Number.isInteger(value)) {
      if (!/^[+-]?\d+$/.test(want) || BigInt(want) < INT64[0] || BigInt(want) > INT64[1]) return false;
      if (BigInt(want) === BigInt(value)) return true;
    } else if (typeof value === 'number') {
      if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(want)) return false;
      if (Number(want) === value) return true;
    }
  }
  return false;
}

/**
 * pulumi-oci `filters` (tfresource ApplyFiltersInCollection): every filter must pass (any of its
 * values), on the item's property of that name, snake_case as pulumi-oci names it or camelCase.
 * An item without the property does not pass: filter the items before they get their zero values.
 */
export function applyFilters(items: Props[], filters: Filter[] | undefined): Props[] {
  if (!filters?.length) return items;
  const tests = filters.map((f) => ({
    name: camel(f.name),
    values: f.values,
    tests: f.values.map((w) => matcher(w, f.regex)),
  }));
  return items.filter((item) =>
    tests.every((f) => item[f.name] !== undefined && passes(item[f.name], f.values, f.tests)),
  );
}

function result(token: string, raw: Props): Props {
  const fn = packageSchema().functions[token];
  return shapeObject(raw, fn.outputs, Object.keys(fn.inputs.properties)) ?? {};
}

/** A list invoke: pages through, shapes items as the schema's collection item type, filters. */
async function listInvoke<T>(
  token: string,
  args: Props,
  collection: string,
  fetch: (page?: string) => Promise<Page<T>>,
): Promise<Props> {
  const raw = await all(fetch);
  const fn = packageSchema().functions[token].outputs;
  const collRef = fn.properties[collection].items!.$ref!;
  const itemRef = packageSchema().types[collRef.replace('#/types/', '')].properties.items.items!.$ref!;
  const itemSpec = packageSchema().types[itemRef.replace('#/types/', '')];
  const fields = Object.keys(itemSpec.properties);
  const shaped = raw.map((x) => shapeObject(x, itemSpec, fields) ?? {});
  const items = applyFilters(shaped, args.filters as Filter[] | undefined).map((i) => withZeroValues(i, itemSpec));
  const out = result(token, { ...args, id: (args.id as string) ?? syntheticId(token, args) });
  out[collection] = [{ items }];
  return out;
}

const q = (args: Props, k: string): string | undefined =>
  typeof args[k] === 'string' ? (args[k] as string) : undefined;

/** The OCI operation each function calls, for its error messages. */
const OPERATIONS: Record<string, string> = {
  'oci:DisasterRecovery/getDrPlan:getDrPlan': 'GetDrPlan',
  'oci:DisasterRecovery/getDrPlans:getDrPlans': 'ListDrPlans',
  'oci:DisasterRecovery/getDrProtectionGroup:getDrProtectionGroup': 'GetDrProtectionGroup',
  'oci:DisasterRecovery/getDrProtectionGroups:getDrProtectionGroups': 'ListDrProtectionGroups',
  'oci:AiLanguage/getEndpoint:getEndpoint': 'GetEndpoint',
  'oci:AiLanguage/getEndpoints:getEndpoints': 'ListEndpoints',
  'oci:AiLanguage/getModel:getModel': 'GetModel',
  'oci:AiLanguage/getModels:getModels': 'ListModels',
  'oci:AiLanguage/getProject:getProject': 'GetProject',
  'oci:AiLanguage/getProjects:getProjects': 'ListProjects',
};

const FUNCTIONS: Record<string, (c: InvokeContext, a: Props) => Promise<Props>> = {
  'oci:DisasterRecovery/getDrPlan:getDrPlan': async (c, a) => {
    const r = await c.clients.dr.getDrPlan({ drPlanId: q(a, 'drPlanId')! });
    return {
      ...result('oci:DisasterRecovery/getDrPlan:getDrPlan', r.drPlan as unknown as Props),
      drPlanId: a.drPlanId,
    };
  },
  'oci:DisasterRecovery/getDrPlans:getDrPlans': (c, a) =>
    listInvoke('oci:DisasterRecovery/getDrPlans:getDrPlans', a, 'drPlanCollections', async (page) => {
      const r = await c.clients.dr.listDrPlans({
        drProtectionGroupId: q(a, 'drProtectionGroupId')!,
        displayName: q(a, 'displayName'),
        drPlanId: q(a, 'drPlanId'),
        drPlanType: q(a, 'drPlanType') as never,
        lifecycleState: q(a, 'state') as never,
        lifecycleSubState: q(a, 'lifecycleSubState') as never,
        page,
      });
      return { items: r.drPlanCollection.items, next: r.opcNextPage };
    }),
  'oci:DisasterRecovery/getDrProtectionGroup:getDrProtectionGroup': async (c, a) => {
    const r = await c.clients.dr.getDrProtectionGroup({ drProtectionGroupId: q(a, 'drProtectionGroupId')! });
    return {
      ...result(
        'oci:DisasterRecovery/getDrProtectionGroup:getDrProtectionGroup',
        r.drProtectionGroup as unknown as Props,
      ),
      drProtectionGroupId: a.drProtectionGroupId,
    };
  },
  'oci:DisasterRecovery/getDrProtectionGroups:getDrProtectionGroups': (c, a) =>
    listInvoke(
      'oci:DisasterRecovery/getDrProtectionGroups:getDrProtectionGroups',
      a,
      'drProtectionGroupCollections',
      async (page) => {
        const r = await c.clients.dr.listDrProtectionGroups({
          compartmentId: q(a, 'compartmentId')!,
          displayName: q(a, 'displayName'),
          drProtectionGroupId: q(a, 'drProtectionGroupId'),
          role: q(a, 'role') as never,
          lifecycleState: q(a, 'state') as never,
          lifecycleSubState: q(a, 'lifecycleSubState') as never,
          page,
        });
        return { items: r.drProtectionGroupCollection.items, next: r.opcNextPage };
      },
    ),
  'oci:AiLanguage/getEndpoint:getEndpoint': async (c, a) => {
    const r = await c.clients.language.getEndpoint({ endpointId: q(a, 'id')! });
    return result('oci:AiLanguage/getEndpoint:getEndpoint', r.endpoint as unknown as Props);
  },
  'oci:AiLanguage/getEndpoints:getEndpoints': (c, a) =>
    listInvoke('oci:AiLanguage/getEndpoints:getEndpoints', a, 'endpointCollections', async (page) => {
      const r = await c.clients.language.listEndpoints({
        compartmentId: q(a, 'compartmentId')!,
        endpointId: q(a, 'id'),
        displayName: q(a, 'displayName'),
        modelId: q(a, 'modelId'),
        projectId: q(a, 'projectId'),
        lifecycleState: q(a, 'state') as never,
        page,
      });
      return { items: r.endpointCollection.items, next: r.opcNextPage };
    }),
  'oci:AiLanguage/getModel:getModel': async (c, a) => {
    const r = await c.clients.language.getModel({ modelId: q(a, 'id')! });
    return result('oci:AiLanguage/getModel:getModel', r.model as unknown as Props);
  },
  'oci:AiLanguage/getProject:getProject': async (c, a) => {
    const r = await c.clients.language.getProject({ projectId: q(a, 'id')! });
    return result('oci:AiLanguage/getProject:getProject', r.project as unknown as Props);
  },
  'oci:AiLanguage/getProjects:getProjects': (c, a) =>
    listInvoke('oci:AiLanguage/getProjects:getProjects', a, 'projectCollections', async (page) => {
      const r = await c.clients.language.listProjects({
        compartmentId: q(a, 'compartmentId')!,
        projectId: q(a, 'id'),
        displayName: q(a, 'displayName'),
        lifecycleState: q(a, 'state') as never,
        page,
      });
      return { items: r.projectCollection.items, next: r.opcNextPage };
    }),
  'oci:AiLanguage/getModels:getModels': (c, a) =>
    listInvoke('oci:AiLanguage/getModels:getModels', a, 'modelCollections', async (page) => {
      const r = await c.clients.language.listModels({
        compartmentId: q(a, 'compartmentId')!,
        modelId: q(a, 'id'),
        displayName: q(a, 'displayName'),
        projectId: q(a, 'projectId'),
        lifecycleState: q(a, 'state') as never,
        page,
      });
      return { items: r.modelCollection.items, next: r.opcNextPage };
    }),
};

export async function invokeFunction(token: string, args: Props, ctx: InvokeContext): Promise<Result> {
  const fn = FUNCTIONS[token];
  const spec = packageSchema().functions[token];
  if (!fn || !spec) throw new ProviderError(`unknown function ${token}`);
  const failures: Failure[] = (spec.inputs.required ?? [])
    .filter((k) => args[k] === undefined || args[k] === null || args[k] === '')
    .map((k) => ({ property: k, reason: `missing required argument '${k}'` }));
  if (failures.length) return { failures };
  try {
    return { outputs: await fn(ctx, args) };
  } catch (e) {
    if (e instanceof ProviderError) throw e;
    // `getDrPlans: ListDrPlans failed: OCI 404 NotAuthorizedOrNotFound: … (opc-request-id: …)`
    throw new ProviderError(describeError(token.split(':').pop()!, OPERATIONS[token] ?? 'the call', e));
  }
}
