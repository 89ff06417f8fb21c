// Logging to the engine (Engine.Log). The address may be unreachable: every call is
// fire-and-forget with a short deadline, and any failure is swallowed.
import type * as grpc from '@grpc/grpc-js';
import { codec } from './rpc';
import type { Props } from './wire';

export interface EngineLog {
  info(urn: string, message: string, ephemeral?: boolean): void;
  warning(urn: string, message: string): void;
  /**
   * Logs to the engine at `address` from now on: the one Handshake names, which is the engine
   * that is calling (it may differ from the address the process was started with, when an engine
   * hands a running plugin from one of its runs to the next).
   */
  retarget(address: string): void;
  close(): void;
}

/** pulumirpc.LogSeverity's INFO and WARNING */
const INFO = 1;
const WARNING = 2;

export function createEngineLog(grpcLib: typeof grpc, startAddress: string | undefined): EngineLog {
  let address = startAddress;
  let client: grpc.Client | undefined;
  let broken = !address;
  const request = codec('LogRequest');
  const closeClient = (): void => {
    try {
      client?.close();
    } catch {
      // ignore
    }
    client = undefined;
  };
  const connect = (): grpc.Client | undefined => {
    if (client || broken) return client;
    try {
      client = new grpcLib.Client(address!, grpcLib.credentials.createInsecure());
    } catch {
      broken = true;
    }
    return client;
  };
  const send = (severity: number, urn: string, message: string, ephemeral: boolean): void => {
    const c = connect();
    if (!c) return;
    try {
      c.makeUnaryRequest<Props, Props>(
        '/pulumirpc.Engine/Log',
        request.serialize,
        () => ({}),
        { severity, message, urn, ephemeral },
        new grpcLib.Metadata(),
        { deadline: Date.now() + 2000 },
        () => undefined,
      );
    } catch {
      // Logging is best effort.
    }
  };
  return {
    info: (urn, message, ephemeral = false) => send(INFO, urn, message, ephemeral),
    warning: (urn, message) => send(WARNING, urn, message, false),
    retarget(next) {
      if (!next || next === address) return;
      closeClient();
      address = next;
      broken = false;
    },
    close: closeClient,
  };
}
