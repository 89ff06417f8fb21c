// Logging to the engine (Engine.Log). The address may be unreachable: every call is
// fire-and-forget with a short deadline, and any failure is swallowed.
import type * as grpc from '@grpc/grpc-js';
import { codec } from './rpc';
import type { Props } from './wire';

export interface EngineLog {
  info(urn: string, message: string, ephemeral?: boolean): void;
  close(): void;
}

/** pulumirpc.LogSeverity.INFO */
const INFO = 1;

export function createEngineLog(grpcLib: typeof grpc, address: string | undefined): EngineLog {
  let client: grpc.Client | undefined;
  let broken = !address;
  const request = codec('LogRequest');
  const connect = (): grpc.Client | undefined => {
    if (client || broken) return client;
    try {
      client = new grpcLib.Client(address!, grpcLib.credentials.createInsecure());
    } catch {
      broken = true;
    }
    return client;
  };
  return {
    info(urn, message, ephemeral = false) {
      const c = connect();
      if (!c) return;
      try {
        c.makeUnaryRequest<Props, Props>(
          '/pulumirpc.Engine/Log',
          request.serialize,
          () => ({}),
          { severity: INFO, message, urn, ephemeral },
          new grpcLib.Metadata(),
          { deadline: Date.now() + 2000 },
          () => undefined,
        );
      } catch {
        // Logging is best effort.
      }
    },
    close() {
      try {
        client?.close();
      } catch {
        // ignore
      }
    },
  };
}
