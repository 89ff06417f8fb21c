// A version 1 or 2 deployment brought up to version 3, as Pulumi's `stack import` reads one:
// UnmarshalUntypedDeployment (pkg/resource/stack/deployment.go) decodes it into apitype.DeploymentV1
// or DeploymentV2, which keeps only the fields those types declare, then migrates it with
// UpToDeploymentV2 and UpToDeploymentV3 (sdk/go/common/apitype/migrate).

type Json = Record<string, unknown>;

/** The fields of apitype.ResourceV1 that ResourceV2 keeps (`defaults` is dropped). */
const RESOURCE_V1 = ['urn', 'custom', 'delete', 'id', 'type', 'inputs', 'outputs', 'parent', 'protect'] as const;
/** apitype.ResourceV2's fields besides ResourceV1's kept ones. */
const RESOURCE_V2 = [...RESOURCE_V1, 'external', 'dependencies', 'initErrors', 'provider'] as const;

const isJson = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

function pick(value: unknown, fields: readonly string[]): Json {
  const from = isJson(value) ? value : {};
  return Object.fromEntries(fields.filter((f) => from[f] !== undefined && from[f] !== null).map((f) => [f, from[f]]));
}

/**
 * UpToResourceV2: ResourceV1 without `defaults`; `external` false and no `provider`, as V1 had neither.
 * Its dependencies are `append(v2.Dependencies, v1.Dependencies...)`: nil (none) when V1 has none.
 */
function upToResourceV2(v1: unknown): Json {
  const v2 = pick(v1, [...RESOURCE_V1, 'dependencies', 'initErrors']);
  v2.inputs ??= {};
  v2.outputs ??= {};
  if (Array.isArray(v2.dependencies) && v2.dependencies.length === 0) delete v2.dependencies;
  return v2;
}

/**
 * UpToResourceV3: ResourceV2's fields, and every input property depending on all of the
 * resource's dependencies (`propertyDependencies`), Pulumi's conservative guess.
 */
function upToResourceV3(v2: Json): Json {
  // The resource's own slice: Go's nil, written `null`, when it had none (a version 2 `[]` stays `[]`).
  const dependencies = Array.isArray(v2.dependencies) ? (v2.dependencies as string[]) : null;
  const keys = Object.keys(isJson(v2.inputs) ? v2.inputs : {});
  // None without inputs: the empty map ResourceV3's `omitempty` leaves out.
  if (keys.length === 0) return v2;
  return {
    ...v2,
    propertyDependencies: Object.fromEntries(keys.map((key) => [key, dependencies && [...dependencies]])),
  };
}

/**
 * A deployment of `version` 1 or 2 as DeploymentV3: its manifest, its resources migrated, and
 * (version 2 only: DeploymentV1 has none) its pending operations, OperationV1 to OperationV2.
 * Nothing else survives: DeploymentV1 and V2 declare no secrets providers or metadata.
 */
export function upToDeploymentV3(deployment: Json, version: 1 | 2): Json {
  const resources = Array.isArray(deployment.resources) ? deployment.resources : [];
  const operations = version === 2 && Array.isArray(deployment.pending_operations) ? deployment.pending_operations : [];
  const resourceV2 = (r: unknown) => (version === 1 ? upToResourceV2(r) : pick(r, RESOURCE_V2));
  const v3: Json = { manifest: deployment.manifest };
  if (resources.length > 0) v3.resources = resources.map((r) => upToResourceV3(resourceV2(r)));
  if (operations.length > 0)
    v3.pending_operations = operations.map((op: unknown) => ({
      resource: upToResourceV3(resourceV2(isJson(op) ? op.resource : undefined)),
      type: isJson(op) ? op.type : undefined,
    }));
  return v3;
}
