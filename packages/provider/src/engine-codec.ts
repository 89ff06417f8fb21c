// The engine's side of the same wire codec (./proto): ocikit's engine is the client of this
// plugin's ResourceProvider service and the server of the ResourceMonitor service the Pulumi
// program calls. LAYOUTS (./rpc) declares only what the provider reads on requests; here are the
// requests with every field the engine sends, the responses with presence where the engine tells
// "absent" from "empty" (CheckResponse.inputs, ReadResponse.inputs), and the ResourceMonitor
// messages. Field numbers are pulumi's provider.proto, resource.proto and alias.proto;
// rpc.test.ts checks each field against the generated stubs by name and value.
import { decode, encode, type Field, type Layout } from './proto';
import { LAYOUTS } from './rpc';
import type { Props } from './wire';

/** `layout` with `fields` added (the engine sends more than the provider reads). */
const plus = (layout: Layout, ...fields: Field[]): Layout => [...layout, ...fields];

/** `layout` with the Struct fields `names` decoded as absent when absent (the engine tells absent from empty). */
const optional = (layout: Layout, ...names: string[]): Layout =>
  layout.map((f): Field => (names.includes(f[1]) && f[2] === 'struct' ? [f[0], f[1], 'optstruct'] : f));

const NAME_TYPE = (name: number, type: number): Field[] => [
  [name, 'name', 'string'],
  [type, 'type', 'string'],
];

/** pulumirpc.SourcePosition (source.proto): where the program made a registration. */
const SOURCE_POSITION: Layout = [
  [1, 'uri', 'string'],
  [2, 'line', 'int'],
  [3, 'column', 'int'],
];

export const ENGINE_LAYOUTS = {
  // ---- pulumirpc.ResourceProvider, as its client ----
  ProviderHandshakeRequest: plus(
    LAYOUTS.HandshakeRequest,
    [2, 'rootDirectory', 'string'],
    [3, 'programDirectory', 'string'],
    [4, 'configureWithUrn', 'bool'],
    [5, 'supportsViews', 'bool'],
    [6, 'supportsRefreshBeforeUpdate', 'bool'],
    [7, 'invokeWithPreview', 'bool'],
  ),
  ProviderHandshakeResponse: LAYOUTS.HandshakeResponse,
  Empty: LAYOUTS.Empty,
  PluginInfo: LAYOUTS.PluginInfo,
  CheckRequest: plus(LAYOUTS.CheckRequest, [5, 'randomSeed', 'bytes'], ...NAME_TYPE(6, 7)),
  CheckResponse: optional(LAYOUTS.CheckResponse, 'inputs'),
  DiffRequest: plus(LAYOUTS.DiffRequest, ...NAME_TYPE(7, 8)),
  DiffResponse: LAYOUTS.DiffResponse,
  ConfigureRequest: plus(
    LAYOUTS.ConfigureRequest,
    [3, 'acceptSecrets', 'bool'],
    [4, 'acceptResources', 'bool'],
    [5, 'sendsOldInputs', 'bool'],
    [6, 'sendsOldInputsToDelete', 'bool'],
    [7, 'id', 'string'],
    [8, 'urn', 'string'],
    ...NAME_TYPE(9, 10),
  ),
  ConfigureResponse: LAYOUTS.ConfigureResponse,
  CreateRequest: plus(LAYOUTS.CreateRequest, ...NAME_TYPE(5, 6)),
  CreateResponse: LAYOUTS.CreateResponse,
  // Absent properties/inputs (an import's Read) are not sent: the same on the wire as optstruct.
  ReadRequest: plus(LAYOUTS.ReadRequest, ...NAME_TYPE(5, 6)),
  ReadResponse: optional(LAYOUTS.ReadResponse, 'inputs'),
  UpdateRequest: plus(LAYOUTS.UpdateRequest, [6, 'ignoreChanges', 'strings'], ...NAME_TYPE(9, 10)),
  UpdateResponse: LAYOUTS.UpdateResponse,
  DeleteRequest: plus(
    LAYOUTS.DeleteRequest,
    [3, 'properties', 'struct'],
    [5, 'oldInputs', 'struct'],
    ...NAME_TYPE(6, 7),
  ),
  InvokeRequest: plus(LAYOUTS.InvokeRequest, [7, 'preview', 'bool']),
  InvokeResponse: LAYOUTS.InvokeResponse,
  Status: LAYOUTS.Status,
  ErrorResourceInitFailed: optional(LAYOUTS.ErrorResourceInitFailed, 'inputs'),

  // ---- pulumirpc.ResourceMonitor, as its server (what the engine reads and answers) ----
  SupportsFeatureRequest: [[1, 'id', 'string']],
  SupportsFeatureResponse: [[1, 'hasSupport', 'bool']],
  RegisterResourceRequest: [
    [1, 'type', 'string'],
    [2, 'name', 'string'],
    [3, 'parent', 'string'],
    [4, 'custom', 'bool'],
    [5, 'object', 'struct'],
    [6, 'protect', 'optbool'],
    [7, 'dependencies', 'strings'],
    [8, 'provider', 'string'],
    [
      9,
      'propertyDependencies',
      'map',
      [
        [1, 'key', 'string'],
        [2, 'value', 'message', [[1, 'urns', 'strings']]],
      ],
    ],
    [10, 'deleteBeforeReplace', 'bool'],
    [11, 'version', 'string'],
    [12, 'ignoreChanges', 'strings'],
    [13, 'acceptSecrets', 'bool'],
    [14, 'additionalSecretOutputs', 'strings'],
    [15, 'aliasURNs', 'strings'],
    [16, 'importId', 'string'],
    [
      17,
      'customTimeouts',
      'message',
      [
        [1, 'create', 'string'],
        [2, 'update', 'string'],
        [3, 'delete', 'string'],
      ],
    ],
    [18, 'deleteBeforeReplaceDefined', 'bool'],
    [19, 'supportsPartialValues', 'bool'],
    [20, 'remote', 'bool'],
    [21, 'acceptResources', 'bool'],
    [
      22,
      'providers',
      'map',
      [
        [1, 'key', 'string'],
        [2, 'value', 'string'],
      ],
    ],
    [23, 'replaceOnChanges', 'strings'],
    [24, 'pluginDownloadURL', 'string'],
    [25, 'retainOnDelete', 'optbool'],
    [
      26,
      'aliases',
      'messages',
      [
        [1, 'urn', 'string'],
        [
          2,
          'spec',
          'message',
          [
            [1, 'name', 'string'],
            [2, 'type', 'string'],
            [3, 'stack', 'string'],
            [4, 'project', 'string'],
            [5, 'parentUrn', 'string'],
            [6, 'noParent', 'bool'],
          ],
        ],
      ],
    ],
    [27, 'deletedWith', 'string'],
    [29, 'sourcePosition', 'message', SOURCE_POSITION],
    [
      31,
      'transforms',
      'messages',
      [
        [1, 'target', 'string'],
        [2, 'token', 'string'],
      ],
    ],
    [
      34,
      'hooks',
      'message',
      [
        [1, 'beforeCreate', 'strings'],
        [2, 'afterCreate', 'strings'],
        [3, 'beforeUpdate', 'strings'],
        [4, 'afterUpdate', 'strings'],
        [5, 'beforeDelete', 'strings'],
        [6, 'afterDelete', 'strings'],
        [7, 'onError', 'strings'],
      ],
    ],
    [37, 'hideDiffs', 'strings'],
    [38, 'replaceWith', 'strings'],
    [39, 'replacementTrigger', 'value'],
  ],
  RegisterResourceResponse: [
    [1, 'urn', 'string'],
    [2, 'id', 'string'],
    [3, 'object', 'struct'],
    [4, 'stable', 'bool'],
    [5, 'stables', 'strings'],
    [7, 'result', 'int'],
  ],
  RegisterResourceOutputsRequest: [
    [1, 'urn', 'string'],
    [2, 'outputs', 'struct'],
  ],
  ReadResourceRequest: [
    [1, 'id', 'string'],
    [2, 'type', 'string'],
    [3, 'name', 'string'],
    [4, 'parent', 'string'],
    [5, 'properties', 'struct'],
    [6, 'dependencies', 'strings'],
    [7, 'provider', 'string'],
    [8, 'version', 'string'],
    [9, 'acceptSecrets', 'bool'],
    [10, 'additionalSecretOutputs', 'strings'],
    [12, 'acceptResources', 'bool'],
    [13, 'pluginDownloadURL', 'string'],
    [14, 'sourcePosition', 'message', SOURCE_POSITION],
  ],
  ReadResourceResponse: [
    [1, 'urn', 'string'],
    [2, 'properties', 'struct'],
  ],
  ResourceInvokeRequest: [
    [1, 'tok', 'string'],
    [2, 'args', 'struct'],
    [3, 'provider', 'string'],
    [4, 'version', 'string'],
    [5, 'acceptResources', 'bool'],
    [6, 'pluginDownloadURL', 'string'],
  ],
} satisfies Record<string, Layout>;

export type EngineMessage = keyof typeof ENGINE_LAYOUTS;

/** Serialize/deserialize of one message, for grpc-js method definitions and client calls. */
export function engineCodec(name: EngineMessage): { serialize(m: Props): Buffer; deserialize(b: Buffer): Props } {
  const layout = ENGINE_LAYOUTS[name] as Layout;
  return { serialize: (m) => encode(m, layout), deserialize: (b) => decode(b, layout) };
}
