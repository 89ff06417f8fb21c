// The plugin contract: started by the engine with one argument (its address), serves
// pulumirpc.ResourceProvider on 127.0.0.1, prints only the port on the first stdout line, and
// ends within a second on SIGTERM/SIGINT. Before the port line it loads only grpc-js and this
// package's own small modules (the message codec in ./proto, not google-protobuf and the generated
// stubs); right after it, the rest (configuration, schema.json, the OCI SDK) loads in the
// background (warmUp in ./server), one module at a time so requests are answered in between.
// ocikit's engine may ask it for more provider instances on ports of their own (./instances).
import * as path from 'node:path';
import type * as grpcTypes from '@grpc/grpc-js';

function grpcLib(): typeof grpcTypes {
  // The copy @pulumi/pulumi's stubs use (never a second one).
  const pulumiDir = path.dirname(require.resolve('@pulumi/pulumi/package.json'));
  return require(require.resolve('@grpc/grpc-js', { paths: [pulumiDir] })) as typeof grpcTypes;
}

export async function main(argv: string[]): Promise<void> {
  const grpc = grpcLib();
  const { createEngineLog } = require('./engine-log') as typeof import('./engine-log');
  const { createProviderService, warmUp } = require('./server') as typeof import('./server');
  const { resourceProviderService } = require('./rpc') as typeof import('./rpc');
  const { providerHostService } = require('./instances') as typeof import('./instances');
  const engineAddress = engineAddressOf(argv);
  const instances: Array<{ server: grpcTypes.Server; log: import('./engine-log').EngineLog }> = [];
  /**
   * One provider instance on a port of its own: the first is the one the engine started us for;
   * the first's port also serves ocikit's StartProvider, which starts another (./instances).
   */
  const serve = async (): Promise<number> => {
    const log = createEngineLog(grpc, engineAddress);
    const server = new grpc.Server({
      'grpc.max_receive_message_length': 400 * 1024 * 1024,
      'grpc.max_send_message_length': 400 * 1024 * 1024,
    });
    server.addService(
      resourceProviderService() as unknown as grpcTypes.ServiceDefinition,
      createProviderService(grpc, log) as unknown as grpcTypes.UntypedServiceImplementation,
    );
    if (instances.length === 0) {
      const host = providerHostService(serve);
      server.addService(
        host.definition as unknown as grpcTypes.ServiceDefinition,
        host.implementation as unknown as grpcTypes.UntypedServiceImplementation,
      );
    }
    instances.push({ server, log });
    return new Promise<number>((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, p) =>
        err ? reject(err) : resolve(p),
      ),
    );
  };
  const port = await serve();
  process.stdout.write(`${port}\n`);
  warmUp();
  protectStdout();
  const stop = (): void => {
    for (const { server, log } of instances) {
      log.close();
      server.forceShutdown();
    }
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  // An engine that dies without stopping us must not leave us running: when our parent goes
  // away (we are re-parented), we end too.
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) stop();
  }, 2000).unref();
}

/**
 * The engine's address: the last argument that is not a flag. The Pulumi engine puts its own
 * flags first (`--logtostderr`, `-v=9`, `--tracing <endpoint>`) and the address last, so the
 * tracing endpoint must not be taken for it.
 */
export function engineAddressOf(argv: string[]): string | undefined {
  return argv.filter((a) => !a.startsWith('-')).pop();
}

/**
 * Nothing but the port may reach stdout (the engine reads it): every console method that writes
 * there (log, info, debug, dir, table, …; oci-common calls console.debug) writes to stderr instead.
 */
export function protectStdout(): void {
  const { Console } = require('node:console') as typeof import('node:console');
  const toStderr = new Console({ stdout: process.stderr, stderr: process.stderr });
  const target = console as unknown as Record<string, unknown>;
  const source = toStderr as unknown as Record<string, unknown>;
  for (const key of Object.keys(source)) if (typeof source[key] === 'function') target[key] = source[key];
}

/** Entry point of the bin: runs the plugin with the process arguments. */
export function run(): void {
  main(process.argv.slice(2)).catch((e: unknown) => {
    process.stderr.write(`pulumi-resource-oci: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  });
}

if (require.main === module) run();
