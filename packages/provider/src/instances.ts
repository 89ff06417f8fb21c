// ocikit's one addition to the plugin protocol, which the Pulumi CLI never calls: more provider
// instances in this process. Pulumi starts a plugin process per provider resource (a program with
// a `new oci.Provider` and the default provider runs two), and each costs ~0.5 s of CPU to start
// (Node, gRPC, the OCI SDK) and ~110 MB. ocikit's engine starts one and asks it for the others:
// each instance is a ResourceProvider service of its own (its own Configure, OCI clients, Cancel
// and engine log) on a port of its own, so the engine speaks to it exactly as to a process of its
// own (Handshake, Configure, …). The instances share the process: it ends with the engine's run.

/** The method: no request fields; the answer is the new instance's port. */
export const START_PROVIDER_PATH = '/ocikit.ProviderHost/StartProvider';

/**
 * ocikit's other addition: gRPC metadata its engine sends with a Create, a key of that create, the
 * same when it sends it again after an interrupted run (see createRetryToken). The Pulumi CLI
 * sends none.
 */
export const CREATE_KEY_HEADER = 'ocikit-create-key';

/**
 * A third, an environment variable the Pulumi CLI never sets: ocikit's engine sets it to `1` for a
 * plugin that serves a preview alone (`ocikit preview`: no operation follows it, no refresh, no
 * import), which then does not load the OCI services' SDK and clients ahead: such a preview's Check
 * and Diff never use them, and an Invoke or a Read loads them when it comes (see warmUpSteps).
 */
export const PREVIEW_ONLY_ENV = 'OCIKIT_PREVIEW_ONLY';

export interface StartProviderResponse {
  port: number;
}

/** JSON on the wire: a private, two-field method needs no protobuf schema. */
export const startProviderCodec = {
  serialize: (value: unknown): Buffer => Buffer.from(JSON.stringify(value ?? {})),
  deserialize: (bytes: Buffer): StartProviderResponse =>
    (bytes.length ? JSON.parse(bytes.toString('utf8')) : {}) as StartProviderResponse,
};

/** The service definition and handler for grpc-js's `Server.addService`. */
export function providerHostService(start: () => Promise<number>) {
  const definition = {
    startProvider: {
      path: START_PROVIDER_PATH,
      requestStream: false,
      responseStream: false,
      originalName: 'startProvider',
      requestSerialize: startProviderCodec.serialize,
      requestDeserialize: startProviderCodec.deserialize,
      responseSerialize: startProviderCodec.serialize,
      responseDeserialize: startProviderCodec.deserialize,
    },
  };
  const implementation = {
    startProvider: (
      _call: unknown,
      callback: (error: Error | null, response?: StartProviderResponse) => void,
    ): void => {
      start().then(
        (port) => callback(null, { port }),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    },
  };
  return { definition, implementation };
}
