// pulumi.runtime.setMocks with the real MockMonitor, plus a record of what each request carried
// that MockResourceArgs does not show (the package version, additionalSecretOutputs).
import * as pulumi from '@pulumi/pulumi';
import type { MockCallArgs, MockMonitor, MockResourceArgs, Mocks } from '@pulumi/pulumi/runtime/mocks';
import { getMonitor } from '@pulumi/pulumi/runtime/settings';
import type {
  ReadResourceRequest,
  RegisterResourceRequest,
  ResourceInvokeRequest,
} from '@pulumi/pulumi/proto/resource_pb';

export interface Recorded {
  resources: MockResourceArgs[];
  calls: MockCallArgs[];
  /** type token or invoke token → version sent with the request */
  versions: Map<string, string>;
  additionalSecretOutputs: Map<string, string[]>;
}

type Callback = (err: unknown, response: unknown) => void;

/** Records each request's version (and secret outputs) before the MockMonitor handles it. */
function recordRequests(monitor: MockMonitor, record: Recorded): void {
  const registerResource = monitor.registerResource.bind(monitor);
  const readResource = monitor.readResource.bind(monitor);
  const invoke = monitor.invoke.bind(monitor);
  monitor.registerResource = (req: RegisterResourceRequest, callback: Callback) => {
    record.versions.set(req.getType(), req.getVersion());
    record.additionalSecretOutputs.set(req.getType(), req.getAdditionalsecretoutputsList());
    return registerResource(req, callback);
  };
  monitor.readResource = (req: ReadResourceRequest, callback: Callback) => {
    record.versions.set(`read:${req.getType()}`, req.getVersion());
    return readResource(req, callback);
  };
  monitor.invoke = (req: ResourceInvokeRequest, callback: Callback) => {
    record.versions.set(req.getTok(), req.getVersion());
    return invoke(req, callback);
  };
}

export interface MockBehaviour {
  /** The state a new resource reports (default: its inputs). */
  state?: (args: MockResourceArgs) => Record<string, unknown>;
  /** The result of an invoke (default: its arguments). */
  call?: (args: MockCallArgs) => Record<string, unknown>;
}

export async function recordMocks(behaviour: MockBehaviour = {}): Promise<Recorded> {
  const record: Recorded = { resources: [], calls: [], versions: new Map(), additionalSecretOutputs: new Map() };
  const mocks: Mocks = {
    newResource(args) {
      record.resources.push(args);
      return { id: args.id || `${args.name}-id`, state: behaviour.state ? behaviour.state(args) : args.inputs };
    },
    call(args) {
      record.calls.push(args);
      return behaviour.call ? behaviour.call(args) : args.inputs;
    },
  };
  await pulumi.runtime.setMocks(mocks, 'project', 'stack', false);
  recordRequests(getMonitor() as unknown as MockMonitor, record);
  return record;
}

/** The value of an Output once the mocks have resolved it. */
export function valueOf<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => output.apply(resolve));
}
