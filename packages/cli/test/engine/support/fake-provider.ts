// A small ResourceProvider plugin for the step-generator tests that need behaviour the real
// plugin cannot be made to show on demand (a provider-requested delete-before-replace, a
// partial failure). Started by the engine exactly as the real plugin (one argument: the engine
// address); it keeps its "cloud" in the JSON file named by FAKE_PROVIDER_STORE and appends every
// call to FAKE_PROVIDER_LOG, so tests can check the call order.
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import type * as grpcTypes from '@grpc/grpc-js';
import { main, type Provider } from '@pulumi/pulumi/provider';

type Props = Record<string, unknown>;
const store = process.env.FAKE_PROVIDER_STORE!;
const log = (line: string) =>
  process.env.FAKE_PROVIDER_LOG && appendFileSync(process.env.FAKE_PROVIDER_LOG, line + '\n');
const load = (): Record<string, Props> => (existsSync(store) ? JSON.parse(readFileSync(store, 'utf8')) : {});
const save = (s: Record<string, Props>) => writeFileSync(store, JSON.stringify(s));
let counter = Date.now();
const logHolds = async (calls: string[]) => {
  const held = () => readFileSync(process.env.FAKE_PROVIDER_LOG!, 'utf8').split('\n');
  while (!held().some((line) => calls.includes(line))) await new Promise((r) => setTimeout(r, 20));
};

/** This call's attempt number for `key` (1 the first time), counted on disk across runs. */
const attempt = (key: string): number => {
  const attemptsFile = `${store}.attempts.json`;
  const attempts = existsSync(attemptsFile) ? JSON.parse(readFileSync(attemptsFile, 'utf8')) : {};
  const n = (attempts[key] = (attempts[key] ?? 0) + 1);
  writeFileSync(attemptsFile, JSON.stringify(attempts));
  return n;
};

/** Properties whose change forces a replacement; `dbr` asks for delete-before-replace. */
const replaceKeys = ['replaceMe', 'dbr'];

const provider: Provider = {
  version: '0.0.1',
  async check(urn, olds, news) {
    log(`check ${urn.split('::').pop()} olds=${olds === undefined ? 'none' : Object.keys(olds).length}`);
    if ((news as Props).bad) return { inputs: news, failures: [{ property: 'bad', reason: 'bad is not allowed' }] };
    if ((news as Props).checkThrows) throw new Error('the provider could not check it');
    return { inputs: news };
  },
  async diff(id, urn, olds: Props, news: Props) {
    log(`diff ${urn.split('::').pop()}`);
    if (news.diffThrows) throw new Error('the provider could not diff it');
    // diffWaitsFor: [calls]: the answer waits until the call log holds one of them, so a test
    // decides which of two concurrent Diffs comes back first (Pulumi's TestDBRParallel).
    if (Array.isArray(news.diffWaitsFor) && news.diffWaitsFor.length) await logHolds(news.diffWaitsFor as string[]);
    // diffUnknown: the answer says nothing (DIFF_UNKNOWN), so the engine decides on the inputs.
    if (news.diffUnknown) return {};
    const keys = [...new Set([...Object.keys(olds), ...Object.keys(news)])].filter(
      (k) => !['id', 'state'].includes(k) && JSON.stringify(olds[k]) !== JSON.stringify(news[k]),
    );
    const replaces = keys.filter((k) => replaceKeys.includes(k));
    return { changes: keys.length > 0, replaces, deleteBeforeReplace: replaces.includes('dbr') };
  },
  async create(urn, inputs: Props) {
    const name = urn.split('::').pop();
    // failTimes: n: the first n creates of this name fail (a transient error), counted on disk.
    if (typeof inputs.failTimes === 'number') {
      const n = attempt(name!);
      if (n <= inputs.failTimes) {
        log(`create ${name} failed`);
        throw new Error(`transient failure ${n} of ${name}`);
      }
    }
    if (typeof inputs.sleepMs === 'number') {
      log(`begin ${name}`);
      await new Promise((r) => setTimeout(r, inputs.sleepMs as number));
    }
    log(`create ${name}`);
    const id = `fake-${name}-${counter++}`;
    const s = load();
    s[id] = { ...inputs, state: 'ACTIVE' };
    save(s);
    if (inputs.failInit) {
      const e = new Error('the resource failed to initialise') as Error & {
        id: string;
        properties: Props;
        reasons: string[];
      };
      Object.assign(e, { id, properties: s[id], reasons: ['failed to initialise'] });
      throw e;
    }
    return { id, outs: s[id] };
  },
  async read(id, urn) {
    log(`read ${urn.split('::').pop()}`);
    const s = load();
    if (!s[id]) return { id: '', props: {} };
    const { state, ...inputs } = s[id];
    void state;
    return { id, props: s[id], inputs };
  },
  async update(id, urn, olds, news: Props) {
    log(`update ${urn.split('::').pop()}`);
    const s = load();
    s[id] = { ...news, state: 'ACTIVE' };
    save(s);
    if (news.failInit) {
      const e = new Error('the resource failed to initialise') as Error & { properties: Props; reasons: string[] };
      Object.assign(e, { id, properties: s[id], reasons: ['failed to initialise'] });
      throw e;
    }
    return { outs: s[id] };
  },
  async delete(id, urn, props: Props) {
    const name = urn.split('::').pop();
    // failDeleteTimes: n: the first n deletes of this name fail, counted on disk.
    if (typeof props.failDeleteTimes === 'number') {
      const n = attempt(`delete ${name}`);
      if (n <= props.failDeleteTimes) {
        log(`delete ${name} failed`);
        throw new Error(`transient delete failure ${n} of ${name}`);
      }
    }
    log(`delete ${name}`);
    const s = load();
    delete s[id];
    save(s);
  },
  async invoke(token, inputs: Props) {
    log(`invoke ${token}`);
    return { outputs: { echoed: inputs, count: Object.keys(load()).length } };
  },
};

// The Node SDK's provider server answers DiffConfig UNIMPLEMENTED; the engine's provider
// replacement needs one that can ask for a replace, so this wraps the service it registers:
// a change of the `generation` configuration key forces a replacement.
const grpcPath = require.resolve('@grpc/grpc-js', { paths: [require.resolve('@pulumi/pulumi/provider')] });
const grpc = require(grpcPath) as typeof grpcTypes;
const pb = require('@pulumi/pulumi/proto/provider_pb') as typeof import('@pulumi/pulumi/proto/provider_pb');
const addService = grpc.Server.prototype.addService;
grpc.Server.prototype.addService = function (service, impl) {
  const diffConfig: grpcTypes.handleUnaryCall<
    InstanceType<typeof pb.DiffRequest>,
    InstanceType<typeof pb.DiffResponse>
  > = (call, cb) => {
    const olds = call.request.getOldInputs()?.toJavaScript() ?? {};
    const news = call.request.getNews()?.toJavaScript() ?? {};
    log(`diffConfig ${JSON.stringify(olds.generation ?? null)} ${JSON.stringify(news.generation ?? null)}`);
    const res = new pb.DiffResponse();
    const replace = JSON.stringify(olds.generation) !== JSON.stringify(news.generation);
    res.setChanges(replace ? pb.DiffResponse.DiffChanges.DIFF_SOME : pb.DiffResponse.DiffChanges.DIFF_NONE);
    if (replace) res.setReplacesList(['generation']).setDiffsList(['generation']);
    cb(null, res);
  };
  if (!('diffConfig' in service)) return addService.call(this, service, impl);
  const wrapped = Object.create(impl) as typeof impl;
  wrapped.diffConfig = diffConfig as grpcTypes.UntypedHandleCall;
  // Logged, so tests see each Configure (a plugin handed to the next run is configured again).
  const configure = impl.configure as (...args: unknown[]) => unknown;
  wrapped.configure = ((...args: unknown[]) => {
    log('configure');
    return configure.apply(impl, args);
  }) as grpcTypes.UntypedHandleCall;
  return addService.call(this, service, wrapped);
};

void main(provider, process.argv.slice(2));
