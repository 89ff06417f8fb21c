// Derives packages/provider/schema.json from the installed @pulumi/oci 4.20.0 declarations, so our
// tokens, property names, optionality and nested type shapes are exactly pulumi-oci's. Descriptions
// of the two resources come from the specification. Run: `npx tsx scripts/gen-schema.ts` (package dir).
// schema.json is committed and is the source of truth at run time; this script only produced it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

const OCI = path.dirname(require.resolve('@pulumi/oci/package.json'));
type Json = Record<string, unknown>;

const parsed = new Map<string, ts.SourceFile>();
function source(rel: string): ts.SourceFile {
  let sf = parsed.get(rel);
  if (!sf) {
    sf = ts.createSourceFile(rel, fs.readFileSync(path.join(OCI, rel), 'utf8'), ts.ScriptTarget.ES2022, true);
    parsed.set(rel, sf);
  }
  return sf;
}

function doc(node: ts.Node): string | undefined {
  const docs = (node as unknown as { jsDoc?: ts.JSDoc[] }).jsDoc;
  if (!docs?.length) return undefined;
  const c = docs[docs.length - 1].comment;
  const text = typeof c === 'string' ? c : c?.map((p) => p.text).join('');
  return text?.trim() || undefined;
}

function findDecl(
  sf: ts.SourceFile,
  name: string,
  ns?: string,
): ts.InterfaceDeclaration | ts.ClassDeclaration | undefined {
  let found: ts.InterfaceDeclaration | ts.ClassDeclaration | undefined;
  const visit = (node: ts.Node, inNs: string | undefined): void => {
    if (found) return;
    if (ts.isModuleDeclaration(node)) {
      const n = node.name.text;
      if (node.body) ts.forEachChild(node.body, (c) => visit(c, n));
      return;
    }
    if ((ts.isInterfaceDeclaration(node) || ts.isClassDeclaration(node)) && node.name?.text === name && inNs === ns) {
      found = node;
      return;
    }
    ts.forEachChild(node, (c) => visit(c, inNs));
  };
  ts.forEachChild(sf, (c) => visit(c, undefined));
  return found;
}

// Integers in pulumi-oci's schema (TypeScript only says `number`).
const INTEGERS = new Set([
  'refreshTrigger',
  'verifyTrigger',
  'timeout',
  'inferenceUnits',
  'retryDurationSeconds',
  'support',
  'disassociateTrigger',
  'gtidReconciliationTimeout',
  'maxNumberOfBackupsRetained',
  'maximum',
  'minimum',
]);
const types: Record<string, Json> = {};
const pendingTypes: Array<{ module: string; name: string }> = [];

function typeToken(module: string, name: string): string {
  return `oci:${module}/${name}:${name}`;
}

function propType(node: ts.TypeNode, propName: string): { spec: Json; optional: boolean } {
  if (ts.isTypeReferenceNode(node)) {
    const n = node.typeName.getText();
    if (n === 'pulumi.Output' || n === 'pulumi.Input') return propType(node.typeArguments![0], propName);
    const m = /^(?:inputs|outputs)\.(\w+)\.(\w+)$/.exec(n);
    if (m) {
      const name = m[2].replace(/Args$/, '');
      if (!types[typeToken(m[1], name)] && !pendingTypes.some((p) => p.name === name))
        pendingTypes.push({ module: m[1], name });
      return { spec: { $ref: `#/types/${typeToken(m[1], name)}` }, optional: false };
    }
    throw new Error(`unhandled type ${n}`);
  }
  if (ts.isUnionTypeNode(node)) {
    const rest = node.types.filter((t) => t.kind !== ts.SyntaxKind.UndefinedKeyword);
    if (rest.length !== 1) throw new Error(`unhandled union ${node.getText()}`);
    return { spec: propType(rest[0], propName).spec, optional: rest.length !== node.types.length };
  }
  if (ts.isParenthesizedTypeNode(node)) return propType(node.type, propName);
  if (ts.isArrayTypeNode(node))
    return { spec: { type: 'array', items: propType(node.elementType, propName).spec }, optional: false };
  if (ts.isTypeLiteralNode(node)) {
    const idx = node.members.find(ts.isIndexSignatureDeclaration);
    if (!idx) throw new Error(`unhandled literal ${node.getText()}`);
    return { spec: { type: 'object', additionalProperties: propType(idx.type, propName).spec }, optional: false };
  }
  switch (node.kind) {
    case ts.SyntaxKind.StringKeyword:
      return { spec: { type: 'string' }, optional: false };
    case ts.SyntaxKind.BooleanKeyword:
      return { spec: { type: 'boolean' }, optional: false };
    case ts.SyntaxKind.NumberKeyword:
      return { spec: { type: INTEGERS.has(propName) ? 'integer' : 'number' }, optional: false };
    case ts.SyntaxKind.AnyKeyword:
      return { spec: { $ref: 'pulumi.json#/Any' }, optional: false };
  }
  throw new Error(`unhandled type node ${node.getText()}`);
}

function props(
  decl: ts.InterfaceDeclaration | ts.ClassDeclaration,
  descriptions: Record<string, string> = {},
): { properties: Record<string, Json>; required: string[] } {
  const properties: Record<string, Json> = {};
  const required: string[] = [];
  for (const m of decl.members) {
    if (!(ts.isPropertySignature(m) || ts.isPropertyDeclaration(m)) || !m.type) continue;
    if (m.modifiers?.some((x) => x.kind === ts.SyntaxKind.StaticKeyword)) continue;
    const name = m.name.getText();
    if (name.startsWith('__')) continue;
    const { spec, optional } = propType(m.type, name);
    const description = descriptions[name] ?? doc(m);
    properties[name] = { ...spec, ...(description ? { description } : {}) };
    if (!m.questionToken && !optional) required.push(name);
  }
  return { properties, required: required.sort() };
}

function drainTypes(): void {
  while (pendingTypes.length) {
    const { module, name } = pendingTypes.shift()!;
    const token = typeToken(module, name);
    if (types[token]) continue;
    const out = findDecl(source('types/output.d.ts'), name, module);
    const inp =
      findDecl(source('types/input.d.ts'), name, module) ?? findDecl(source('types/input.d.ts'), `${name}Args`, module);
    if (!out && !inp) throw new Error(`type ${token} not found`);
    const o = out ? props(out, NESTED_DESCRIPTIONS[name]) : undefined;
    const i = inp ? props(inp, NESTED_DESCRIPTIONS[name]) : undefined;
    const spec: Json = { type: 'object', properties: (o ?? i)!.properties };
    // Bridged providers list required inputs in `required` and computed-but-always-set outputs in
    // language.nodejs.requiredOutputs; we keep that split so the generated SDK matches pulumi-oci.
    if (i?.required.length) spec.required = i.required;
    if (o && (!i || o.required.join() !== i.required.join()))
      spec.language = { nodejs: { requiredOutputs: o.required } };
    types[token] = spec;
  }
}

// ---- descriptions from the specification (drplan-endpoint-spec.md) ----
const DRPLAN_DESCRIPTIONS: Record<string, string> = {
  displayName: 'Display name of the DR plan.',
  drProtectionGroupId: 'Resource identifier (OCID) of the DR protection group the plan belongs to.',
  type: 'Type of DR plan to create (SWITCHOVER, FAILOVER, START_DRILL or STOP_DRILL).',
  definedTags: 'Defined tags. Each key is predefined and scoped to a namespace, in the form `<namespace>.<key>`.',
  freeformTags: 'Simple key-value tags with no predefined name, type or scope.',
  refreshTrigger: 'When its value is incremented, a Refresh is triggered. Any integer value may be set.',
  sourcePlanId: 'Resource identifier (OCID) of the source DR plan to clone.',
  verifyTrigger: 'When its value is incremented, a Verify is triggered. Any integer value may be set.',
  compartmentId: 'Resource identifier (OCID) of the compartment that contains the plan.',
  lifeCycleDetails: "Message describing the plan's current state in more detail. Note the spelling with a capital C.",
  lifecycleSubState: 'Current sub-state of the DR plan.',
  state: 'Current state of the DR plan.',
  peerDrProtectionGroupId:
    "Resource identifier (OCID) of the peer DR protection group associated with the plan's DR protection group.",
  peerRegion: 'Region of that peer DR protection group.',
  planGroups: 'Groups of the plan.',
  systemTags: 'System tags. Keys are predefined and scoped to namespaces.',
  timeCreated: 'Creation time, RFC 3339 datetime.',
  timeUpdated: 'Last update time, RFC 3339 datetime.',
};
const ENDPOINT_DESCRIPTIONS: Record<string, string> = {
  compartmentId: 'Resource identifier (OCID) of the compartment for the endpoint.',
  modelId: 'Resource identifier (OCID) of the model associated with the endpoint.',
  definedTags: 'Defined tags, keys of the form `<namespace>.<key>`.',
  description: 'Short description of the endpoint.',
  displayName:
    'User-friendly name. It should be unique and can be modified. It must not hold confidential information.',
  freeformTags: 'Simple key-value tags with no predefined name, type or scope.',
  inferenceUnits: 'Number of replicas for the endpoint. Default is 1.',
  lifecycleDetails:
    'Message describing the current state in more detail, for instance actionable information for a failed resource.',
  projectId: 'Resource identifier (OCID) of the project associated with the endpoint.',
  state: 'State of the endpoint.',
  systemTags: 'System tags. Keys are predefined and scoped to namespaces.',
  timeCreated: 'Creation time, RFC 3339 datetime.',
  timeUpdated: 'Last update time, RFC 3339 datetime.',
};
const NESTED_DESCRIPTIONS: Record<string, Record<string, string>> = {
  DrPlanPlanGroup: {
    displayName: 'Display name of the group.',
    id: 'Unique id. Must not be modified by the user.',
    isPauseEnabled:
      'Whether the group is enabled for execution. Applies only to a group of type USER_DEFINED_PAUSE. It is null for all other group types.',
    refreshStatus: 'Refresh status of the plan step or group. STEP_ADDED is one value shown.',
    steps: 'Steps in the group.',
    type: 'Group type. USER_DEFINED_PAUSE is one group type named.',
  },
  DrPlanPlanGroupStep: {
    displayName: 'Display name of the step.',
    errorMode: 'Error mode for the step.',
    groupId: 'Unique id of the group the step belongs to. Must not be modified by the user.',
    id: 'Unique id of the step. Must not be modified by the user.',
    isEnabled: 'Whether the step is enabled for execution.',
    memberId: 'Resource identifier of the member associated with the step.',
    refreshStatus: 'Refresh status of the step.',
    timeout: 'Timeout in seconds for executing the step.',
    type: 'Step type.',
    userDefinedSteps: 'Details of a user-defined step.',
  },
  DrPlanPlanGroupStepUserDefinedStep: {
    functionId: 'Resource identifier of the function to invoke.',
    functionRegion: 'Region in which the function is deployed.',
    objectStorageScriptLocations: 'Object-storage location of a script.',
    requestBody: 'Request body for the function.',
    runAsUser: 'User id on the instance used to run the script or command.',
    runOnInstanceId: 'Resource identifier of the instance on which the script or command runs.',
    runOnInstanceRegion: 'Region of that instance.',
    scriptCommand: 'Script name plus its arguments, as one command line string.',
    stepType: 'Type of the user-defined step.',
  },
  DrPlanPlanGroupStepUserDefinedStepObjectStorageScriptLocation: {
    bucket: 'Bucket name inside the object-storage namespace.',
    namespace: 'Object-storage namespace (usually the tenancy name).',
    object: 'Object name inside the bucket.',
  },
};

function resource(opts: {
  file: string;
  cls: string;
  description: string;
  descriptions: Record<string, string>;
  replaceOnChanges: string[];
}): Json {
  const sf = source(opts.file);
  const outs = props(findDecl(sf, opts.cls)!, opts.descriptions);
  const ins = props(findDecl(sf, `${opts.cls}Args`)!, opts.descriptions);
  const state = props(findDecl(sf, `${opts.cls}State`)!, opts.descriptions);
  for (const k of opts.replaceOnChanges) ins.properties[k] = { ...ins.properties[k], willReplaceOnChanges: true };
  return {
    description: opts.description,
    properties: outs.properties,
    required: outs.required,
    inputProperties: ins.properties,
    requiredInputs: ins.required,
    stateInputs: {
      description: `Input properties used for looking up and filtering ${opts.cls} resources.`,
      type: 'object',
      properties: state.properties,
    },
  };
}

function fn(file: string, name: string): Json {
  const sf = source(file);
  const Name = name[0].toUpperCase() + name.slice(1);
  let description: string | undefined;
  sf.forEachChild((n) => {
    if (ts.isFunctionDeclaration(n) && n.name?.text === name && !description) description = doc(n);
  });
  const a = props(findDecl(sf, `${Name}Args`)!);
  const r = props(findDecl(sf, `${Name}Result`)!);
  return {
    description,
    inputs: {
      description: `A collection of arguments for invoking ${name}.`,
      type: 'object',
      properties: a.properties,
      ...(a.required.length ? { required: a.required } : {}),
    },
    outputs: {
      description: `A collection of values returned by ${name}.`,
      type: 'object',
      properties: r.properties,
      required: r.required,
    },
  };
}

// Provider configuration: the keys ocikit honours (issue 7), with pulumi-oci's names and the
// environment defaults pulumi-oci/Terraform read (OCI_<KEY>); `endpoint` is ocikit's own.
const CONFIG: Array<[string, Json, string, string[]?, boolean?]> = [
  [
    'endpoint',
    { type: 'string' },
    'Base URL of an OCI-compatible service (for example the ocikit emulator). Region R is then reached at `<endpoint>/r/<R>`.',
    ['OCIKIT_ENDPOINT'],
  ],
  ['region', { type: 'string' }, 'The region for API connections (e.g. us-ashburn-1).', ['OCI_REGION']],
  [
    'tenancyOcid',
    { type: 'string' },
    "(Optional) The tenancy OCID for a user. The tenancy OCID can be found at the bottom of user settings in the Oracle Cloud Infrastructure console. Required if auth is set to 'ApiKey', ignored otherwise.",
    ['OCI_TENANCY_OCID'],
  ],
  [
    'userOcid',
    { type: 'string' },
    "(Optional) The user OCID. This can be found in user settings in the Oracle Cloud Infrastructure console. Required if auth is set to 'ApiKey', ignored otherwise.",
    ['OCI_USER_OCID'],
  ],
  [
    'fingerprint',
    { type: 'string' },
    "(Optional) The fingerprint for the user's RSA key. This can be found in user settings in the Oracle Cloud Infrastructure console. Required if auth is set to 'ApiKey', ignored otherwise.",
    ['OCI_FINGERPRINT'],
  ],
  [
    'privateKey',
    { type: 'string' },
    "(Optional) A PEM formatted RSA private key for the user. A private_key or a private_key_path must be provided if auth is set to 'ApiKey', ignored otherwise.",
    ['OCI_PRIVATE_KEY'],
    true,
  ],
  [
    'privateKeyPath',
    { type: 'string' },
    "(Optional) The path to the user's PEM formatted private key. A private_key or a private_key_path must be provided if auth is set to 'ApiKey', ignored otherwise.",
    ['OCI_PRIVATE_KEY_PATH'],
  ],
  [
    'privateKeyPassword',
    { type: 'string' },
    '(Optional) The password used to secure the private key.',
    ['OCI_PRIVATE_KEY_PASSWORD'],
    true,
  ],
  [
    'configFileProfile',
    { type: 'string' },
    'Profile name in the OCI config file (~/.oci/config) to read credentials from.',
    ['OCI_CONFIG_FILE_PROFILE'],
  ],
  [
    'auth',
    { type: 'string' },
    '(Optional) The type of auth to use. Only ApiKey is supported by ocikit today.',
    ['OCI_AUTH'],
  ],
  [
    'retryDurationSeconds',
    { type: 'integer' },
    '(Optional) The minimum duration in seconds to retry a resource operation in response to an error. The actual retry duration may be longer due to jittering of retry operations.',
    ['OCI_RETRY_DURATION_SECONDS'],
  ],
  [
    'disableAutoRetries',
    { type: 'boolean' },
    '(Optional) Disable automatic retries for retriable errors. Automatic retries were introduced to solve some eventual consistency problems but it can also introduce performance issues on destroy operations.',
    ['OCI_DISABLE_AUTO_RETRIES'],
  ],
  [
    'ignoreDefinedTags',
    { type: 'array', items: { type: 'string' } },
    '(Optional) List of defined tags keys that Terraform should ignore when planning creates and updates to the associated remote object',
  ],
];

function main(): void {
  const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')) as { version: string };
  const variables: Record<string, Json> = {};
  for (const [key, spec, description, env, secret] of CONFIG) {
    variables[key] = {
      ...spec,
      description,
      ...(env ? { defaultInfo: { environment: env } } : {}),
      ...(secret ? { secret: true } : {}),
    };
  }
  const resources = {
    'oci:DisasterRecovery/drPlan:DrPlan': resource({
      file: 'disasterrecovery/drPlan.d.ts',
      cls: 'DrPlan',
      description:
        'A disaster-recovery plan of a given plan type inside a DR protection group. The plan is made of ordered groups, each holding steps. A plan can be created as a clone of an existing plan (`sourcePlanId`). Incrementing `refreshTrigger` or `verifyTrigger` runs a Refresh or a Verify of the plan.\n\n## Import\n\nDrPlans can be imported using the `id`, e.g.\n\n```sh\n$ pulumi import oci:DisasterRecovery/drPlan:DrPlan test_dr_plan "id"\n```',
      descriptions: DRPLAN_DESCRIPTIONS,
      replaceOnChanges: ['drProtectionGroupId', 'type', 'sourcePlanId'],
    }),
    'oci:AiLanguage/endpoint:Endpoint': resource({
      file: 'ailanguage/endpoint.d.ts',
      cls: 'Endpoint',
      description:
        'An AI Language inference endpoint: creates the endpoint and deploys a trained language model to it.\n\n## Import\n\nEndpoints can be imported using the `id`, e.g.\n\n```sh\n$ pulumi import oci:AiLanguage/endpoint:Endpoint test_endpoint "id"\n```',
      descriptions: ENDPOINT_DESCRIPTIONS,
      replaceOnChanges: [],
    }),
  };
  const functions = {
    'oci:DisasterRecovery/getDrPlan:getDrPlan': fn('disasterrecovery/getDrPlan.d.ts', 'getDrPlan'),
    'oci:DisasterRecovery/getDrPlans:getDrPlans': fn('disasterrecovery/getDrPlans.d.ts', 'getDrPlans'),
    'oci:DisasterRecovery/getDrProtectionGroup:getDrProtectionGroup': fn(
      'disasterrecovery/getDrProtectionGroup.d.ts',
      'getDrProtectionGroup',
    ),
    'oci:DisasterRecovery/getDrProtectionGroups:getDrProtectionGroups': fn(
      'disasterrecovery/getDrProtectionGroups.d.ts',
      'getDrProtectionGroups',
    ),
    'oci:AiLanguage/getEndpoint:getEndpoint': fn('ailanguage/getEndpoint.d.ts', 'getEndpoint'),
    'oci:AiLanguage/getEndpoints:getEndpoints': fn('ailanguage/getEndpoints.d.ts', 'getEndpoints'),
    'oci:AiLanguage/getModel:getModel': fn('ailanguage/getModel.d.ts', 'getModel'),
    'oci:AiLanguage/getModels:getModels': fn('ailanguage/getModels.d.ts', 'getModels'),
    'oci:AiLanguage/getProject:getProject': fn('ailanguage/getProject.d.ts', 'getProject'),
    'oci:AiLanguage/getProjects:getProjects': fn('ailanguage/getProjects.d.ts', 'getProjects'),
  };
  drainTypes();
  const sortedTypes = Object.fromEntries(Object.entries(types).sort(([a], [b]) => a.localeCompare(b)));
  const schema = {
    name: 'oci',
    displayName: 'Oracle Cloud Infrastructure (ocikit)',
    version: pkg.version,
    description:
      'Oracle Cloud Infrastructure Disaster Recovery plans and AI Language endpoints, with the same tokens and shapes as pulumi-oci.',
    keywords: ['pulumi', 'oci', 'oracle', 'category/cloud'],
    homepage: 'https://github.com/ocikit/ocikit',
    license: 'Apache-2.0',
    repository: 'https://github.com/ocikit/ocikit',
    publisher: 'ocikit',
    meta: { moduleFormat: '(.*)(?:/[^/]*)' },
    language: {
      nodejs: {
        packageName: '@ocikit/oci',
        packageDescription: 'Pulumi SDK for OCI Disaster Recovery plans and AI Language endpoints (ocikit).',
        compatibility: 'tfbridge20',
        disableUnionOutputTypes: true,
        respectSchemaVersion: true,
      },
    },
    config: { variables },
    provider: {
      description: 'The provider type for the oci package (ocikit).',
      // As in pulumi-oci, only string-valued settings are outputs of the provider resource.
      properties: Object.fromEntries(Object.entries(variables).filter(([, v]) => (v as Json).type === 'string')),
      inputProperties: variables,
    },
    resources,
    functions,
    types: sortedTypes,
  };
  fs.writeFileSync(path.join(__dirname, '..', 'schema.json'), JSON.stringify(schema, null, 2) + '\n');
}

main();
