// Logging to the engine (EngineService.Log). The address may be unreachable: every call is
// fire-and-forget with a short deadline, and any failure is swallowed.
import type * as grpc from '@grpc/grpc-js';

export interface EngineLog {
  info(urn: string, message: string, ephemeral?: boolean): void;
  close(): void;
}

export function createEngineLog(grpcLib: typeof grpc, address: string | undefined): EngineLog {
  let client: { log(req: unknown, md: unknown, opts: unknown, cb: () => void): void; close(): void } | undefined;
  let broken = !address;
  const connect = (): typeof client => {
    if (client || broken) return client;
    try {
      const services = require('@pulumi/pulumi/proto/engine_grpc_pb');
      client = new services.EngineClient(address, grpcLib.credentials.createInsecure());
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
        const pb = require('@pulumi/pulumi/proto/engine_pb');
        const req = new pb.LogRequest();
        req.setSeverity(pb.LogSeverity.INFO);
        req.setMessage(message);
        req.setUrn(urn);
        req.setEphemeral(ephemeral);
        c.log(req, new grpcLib.Metadata(), { deadline: Date.now() + 2000 }, () => undefined);
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
