// pulumirpc.ResourceProvider as a grpc-js service definition whose messages are plain objects,
// encoded by ./proto with pulumi's provider.proto layouts. The paths and message layouts are those
// of the generated stubs (@pulumi/pulumi/proto/provider_grpc_pb, provider_pb); rpc.test.ts checks
// them field by field, so the stubs stay the reference without being loaded at start.
// Only the fields the provider reads are declared on requests: the others (DeleteRequest's
// properties, for one) are skipped unparsed.
import { decode, encode, type Layout } from './proto';
import type { Props } from './wire';

const EMPTY: Layout = [];
const FAILURE: Layout = [
  [1, 'property', 'string'],
  [2, 'reason', 'string'],
];
const PROPERTY_DIFF: Layout = [
  [1, 'kind', 'int'],
  [2, 'inputDiff', 'bool'],
];

export const LAYOUTS = {
  HandshakeRequest: [[1, 'engineAddress', 'string']],
  HandshakeResponse: [
    [1, 'acceptSecrets', 'bool'],
    [2, 'acceptResources', 'bool'],
    [3, 'acceptOutputs', 'bool'],
  ],
  Empty: EMPTY,
  /** pulumirpc.PluginAttach: what an engine sends a plugin it attached to (PULUMI_DEBUG_PROVIDERS). */
  PluginAttach: [[1, 'address', 'string']],
  PluginInfo: [[1, 'version', 'string']],
  GetSchemaRequest: [[1, 'version', 'int']],
  GetSchemaResponse: [[1, 'schema', 'string']],
  CheckRequest: [
    [1, 'urn', 'string'],
    [2, 'olds', 'struct'],
    [3, 'news', 'struct'],
  ],
  CheckResponse: [
    [1, 'inputs', 'struct'],
    [2, 'failures', 'messages', FAILURE],
  ],
  DiffRequest: [
    [1, 'id', 'string'],
    [2, 'urn', 'string'],
    [3, 'olds', 'struct'],
    [4, 'news', 'struct'],
    [5, 'ignoreChanges', 'strings'],
    [6, 'oldInputs', 'struct'],
  ],
  DiffResponse: [
    [1, 'replaces', 'strings'],
    [2, 'stables', 'strings'],
    [3, 'deleteBeforeReplace', 'bool'],
    [4, 'changes', 'int'],
    [5, 'diffs', 'strings'],
    [
      6,
      'detailedDiff',
      'map',
      [
        [1, 'key', 'string'],
        [2, 'value', 'message', PROPERTY_DIFF],
      ],
    ],
    [7, 'hasDetailedDiff', 'bool'],
  ],
  ConfigureRequest: [
    [
      1,
      'variables',
      'map',
      [
        [1, 'key', 'string'],
        [2, 'value', 'string'],
      ],
    ],
    [2, 'args', 'struct'],
  ],
  ConfigureResponse: [
    [1, 'acceptSecrets', 'bool'],
    [2, 'supportsPreview', 'bool'],
    [3, 'acceptResources', 'bool'],
    [4, 'acceptOutputs', 'bool'],
  ],
  CreateRequest: [
    [1, 'urn', 'string'],
    [2, 'properties', 'struct'],
    [3, 'timeout', 'double'],
    [4, 'preview', 'bool'],
  ],
  CreateResponse: [
    [1, 'id', 'string'],
    [2, 'properties', 'struct'],
  ],
  ReadRequest: [
    [1, 'id', 'string'],
    [2, 'urn', 'string'],
    [3, 'properties', 'struct'],
    [4, 'inputs', 'struct'],
    [10, 'timeout', 'double'],
  ],
  ReadResponse: [
    [1, 'id', 'string'],
    [2, 'properties', 'struct'],
    [3, 'inputs', 'struct'],
  ],
  UpdateRequest: [
    [1, 'id', 'string'],
    [2, 'urn', 'string'],
    [3, 'olds', 'struct'],
    [4, 'news', 'struct'],
    [5, 'timeout', 'double'],
    [7, 'preview', 'bool'],
    [8, 'oldInputs', 'struct'],
  ],
  UpdateResponse: [[1, 'properties', 'struct']],
  DeleteRequest: [
    [1, 'id', 'string'],
    [2, 'urn', 'string'],
    [4, 'timeout', 'double'],
  ],
  InvokeRequest: [
    [1, 'tok', 'string'],
    [2, 'args', 'struct'],
  ],
  InvokeResponse: [
    [1, 'return', 'struct'],
    [2, 'failures', 'messages', FAILURE],
  ],
  /** google.rpc.Status with google.protobuf.Any details (grpc-status-details-bin). */
  Status: [
    [1, 'code', 'int'],
    [2, 'message', 'string'],
    [
      3,
      'details',
      'messages',
      [
        [1, 'typeUrl', 'string'],
        [2, 'value', 'bytes'],
      ],
    ],
  ],
  ErrorResourceInitFailed: [
    [1, 'id', 'string'],
    [2, 'properties', 'struct'],
    [3, 'reasons', 'strings'],
    [4, 'inputs', 'struct'],
  ],
  /** pulumirpc.LogRequest (Engine.Log). */
  LogRequest: [
    [1, 'severity', 'int'],
    [2, 'message', 'string'],
    [3, 'urn', 'string'],
    [4, 'streamId', 'int'],
    [5, 'ephemeral', 'bool'],
  ],
} satisfies Record<string, Layout>;

type MessageName = keyof typeof LAYOUTS;

/** The RPCs this provider serves: handler key → [method, request, response]. Others answer UNIMPLEMENTED. */
export const METHODS: Record<string, [string, MessageName, MessageName]> = {
  handshake: ['Handshake', 'HandshakeRequest', 'HandshakeResponse'],
  attach: ['Attach', 'PluginAttach', 'Empty'],
  getPluginInfo: ['GetPluginInfo', 'Empty', 'PluginInfo'],
  getSchema: ['GetSchema', 'GetSchemaRequest', 'GetSchemaResponse'],
  checkConfig: ['CheckConfig', 'CheckRequest', 'CheckResponse'],
  diffConfig: ['DiffConfig', 'DiffRequest', 'DiffResponse'],
  configure: ['Configure', 'ConfigureRequest', 'ConfigureResponse'],
  check: ['Check', 'CheckRequest', 'CheckResponse'],
  diff: ['Diff', 'DiffRequest', 'DiffResponse'],
  create: ['Create', 'CreateRequest', 'CreateResponse'],
  read: ['Read', 'ReadRequest', 'ReadResponse'],
  update: ['Update', 'UpdateRequest', 'UpdateResponse'],
  delete: ['Delete', 'DeleteRequest', 'Empty'],
  invoke: ['Invoke', 'InvokeRequest', 'InvokeResponse'],
  cancel: ['Cancel', 'Empty', 'Empty'],
};

export interface MethodDefinition {
  path: string;
  requestStream: false;
  responseStream: false;
  originalName: string;
  requestSerialize(m: Props): Buffer;
  requestDeserialize(b: Buffer): Props;
  responseSerialize(m: Props): Buffer;
  responseDeserialize(b: Buffer): Props;
}

export function codec(name: MessageName): { serialize(m: Props): Buffer; deserialize(b: Buffer): Props } {
  const layout = LAYOUTS[name] as Layout;
  return { serialize: (m) => encode(m, layout), deserialize: (b) => decode(b, layout) };
}

/** The grpc-js service definition of pulumirpc.ResourceProvider, on plain-object messages. */
export function resourceProviderService(): Record<string, MethodDefinition> {
  const out: Record<string, MethodDefinition> = {};
  for (const [key, [method, req, res]] of Object.entries(METHODS)) {
    const rq = codec(req);
    const rs = codec(res);
    out[key] = {
      path: `/pulumirpc.ResourceProvider/${method}`,
      requestStream: false,
      responseStream: false,
      originalName: key,
      requestSerialize: rq.serialize,
      requestDeserialize: rq.deserialize,
      responseSerialize: rs.serialize,
      responseDeserialize: rs.deserialize,
    };
  }
  return out;
}
