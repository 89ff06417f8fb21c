// Calls into the program: a transform or a resource hook is a function in the program, served on
// the program's own callback server (pulumirpc.Callbacks); the program sends the engine a
// reference (target address + token) and the engine invokes it with the request's bytes.
import * as grpc from '@grpc/grpc-js';
import { CallbacksClient } from '@pulumi/pulumi/proto/callback_grpc_pb';
import { CallbackInvokeRequest, type Callback } from '@pulumi/pulumi/proto/callback_pb';

/** A callback reference as the program sends it (pulumirpc.Callback). */
export interface CallbackRef {
  target: string;
  token: string;
}

export function callbackRef(cb: Callback): CallbackRef {
  if (!cb.getTarget()) throw new Error('target must be specified');
  return { target: cb.getTarget(), token: cb.getToken() };
}

/** One client per callback server, kept for the run. */
export class Callbacks {
  private readonly clients = new Map<string, CallbacksClient>();

  /** Invokes a callback with a serialized request; resolves to its serialized response. */
  call(cb: CallbackRef, request: Uint8Array): Promise<Uint8Array> {
    let client = this.clients.get(cb.target);
    if (!client) {
      client = new CallbacksClient(cb.target, grpc.credentials.createInsecure());
      this.clients.set(cb.target, client);
    }
    const message = new CallbackInvokeRequest().setToken(cb.token).setRequest(request);
    return new Promise((resolve, reject) =>
      client.invoke(message, (e, res) =>
        // The program's callback server words its own failures ("transform failed: Error: …").
        e ? reject(new Error(e.details || e.message)) : resolve(res.getResponse_asU8()),
      ),
    );
  }

  close(): void {
    for (const client of this.clients.values()) client.close();
    this.clients.clear();
  }
}
