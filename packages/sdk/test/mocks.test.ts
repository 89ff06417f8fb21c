// The SDK under pulumi.runtime.setMocks, driven by schema.json so that every resource, property
// and function is exercised: required inputs, every output wired, get, isInstance, invokes, the
// Provider resource and the package version on every request.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import * as pulumi from '@pulumi/pulumi';
import { loadBuiltSdk } from './support/built';
import { Recorded, recordMocks, valueOf } from './support/mocks';
import { packageVersion, parseToken, sample, samples, schema } from './support/schema';

interface ResourceClass {
  new (name: string, args: unknown, opts?: pulumi.CustomResourceOptions): pulumi.CustomResource;
  get(name: string, id: string, state?: unknown, opts?: pulumi.CustomResourceOptions): pulumi.CustomResource;
  isInstance(obj: unknown): boolean;
  __pulumiType: string;
}
type Invoke = (args: unknown, opts?: pulumi.InvokeOptions) => Promise<Record<string, unknown>>;
type InvokeOutput = (args: unknown) => pulumi.Output<Record<string, unknown>>;

function member<T>(token: string, suffix = ''): T {
  const tok = parseToken(schema, token);
  const mod = (oci as unknown as Record<string, Record<string, unknown>>)[tok.folder];
  assert.ok(mod, `module ${tok.folder} is exported`);
  const value = mod[tok.name + suffix];
  assert.ok(value, `${tok.folder}.${tok.name}${suffix} is exported`);
  return value as T;
}

function outputOf(resource: pulumi.CustomResource, name: string): pulumi.Output<unknown> {
  const value = (resource as unknown as Record<string, unknown>)[name];
  assert.ok(pulumi.Output.isInstance(value), `${name} is a pulumi.Output`);
  return value as pulumi.Output<unknown>;
}

const resources = Object.entries(schema.resources ?? {});
const functions = Object.entries(schema.functions ?? {});
const oci = loadBuiltSdk();
let record: Recorded;

before(async () => {
  // Every resource reports a sample value for every output; every invoke returns a sample result.
  record = await recordMocks({
    state: (args) => {
      const res = schema.resources?.[args.type];
      return res ? { ...samples(res.properties), ...args.inputs } : args.inputs;
    },
    call: (args) => ({ ...samples(schema.functions?.[args.token]?.outputs?.properties), echoed: args.inputs }),
  });
});

for (const [token, res] of resources) {
  describe(token, () => {
    const Class = () => member<ResourceClass>(token);
    const required = res.requiredInputs ?? [];
    const allInputs = samples(res.inputProperties);

    it('has the exact type token', () => {
      assert.equal(Class().__pulumiType, token);
    });

    for (const name of required) {
      it(`throws "Missing required property '${name}'" without it`, () => {
        const args = { ...allInputs };
        delete args[name];
        assert.throws(() => new (Class())(`missing-${name}`, args), {
          message: `Missing required property '${name}'`,
        });
      });
    }

    it('sends every input and wires every output, with the package version', async () => {
      const resource = new (Class())('full', allInputs);
      assert.equal(await valueOf(resource.id), 'full-id');
      const sent = record.resources.find((r) => r.type === token && r.name === 'full');
      assert.ok(sent, 'the resource was registered');
      assert.deepEqual(sent.inputs, allInputs);
      const expected = { ...samples(res.properties), ...allInputs };
      for (const name of Object.keys(res.properties ?? {})) {
        assert.deepEqual(await valueOf(outputOf(resource, name)), expected[name], `output ${name}`);
      }
      assert.equal(record.versions.get(token), packageVersion);
    });

    it('accepts only the required inputs', async () => {
      const args = Object.fromEntries(required.map((n) => [n, allInputs[n]]));
      const resource = new (Class())('minimal', args);
      await valueOf(resource.urn);
      const sent = record.resources.find((r) => r.type === token && r.name === 'minimal');
      assert.deepEqual(sent?.inputs, args);
    });

    it('get sends the id and the state and reads the resource', async () => {
      const state = samples(res.stateInputs?.properties ?? res.properties);
      const resource = Class().get('looked-up', 'ocid1.existing', state);
      assert.equal(await valueOf(resource.id), 'ocid1.existing');
      const sent = record.resources.find((r) => r.type === token && r.name === 'looked-up');
      assert.equal(sent?.id, 'ocid1.existing');
      assert.deepEqual(sent?.inputs, state);
      assert.equal(record.versions.get(`read:${token}`), packageVersion);
      const first = Object.keys(res.properties ?? {})[0]!;
      assert.deepEqual(await valueOf(outputOf(resource, first)), state[first]);
    });

    it('needs no inputs when rehydrated from a URN (opts.urn)', async () => {
      const original = new (Class())('original', allInputs);
      const urn = await valueOf(original.urn);
      const again = new (Class())('original', undefined, { urn });
      assert.equal(await valueOf(again.urn), urn);
    });

    it('isInstance recognises its own instances only', () => {
      const resource = new (Class())('instance', allInputs);
      assert.equal(Class().isInstance(resource), true);
      assert.equal(Class().isInstance({ __pulumiType: token }), true);
      assert.equal(Class().isInstance({}), false);
      assert.equal(Class().isInstance(undefined), false);
      assert.equal(Class().isInstance(null), false);
      const other = resources.find(([t]) => t !== token);
      if (other)
        assert.equal(
          Class().isInstance(new (member<ResourceClass>(other[0]))('other', samples(other[1].inputProperties))),
          false,
        );
    });
  });
}

for (const [token, fn] of functions) {
  describe(token, () => {
    const args = samples(fn.inputs?.properties);
    const expected = samples(fn.outputs?.properties);

    it('invoke sends its token, arguments and the package version, and maps the result', async () => {
      const result = await member<Invoke>(token)(args);
      const call = record.calls.filter((c) => c.token === token).at(-1);
      assert.ok(call, 'the invoke reached the engine');
      assert.deepEqual(call.inputs, args);
      for (const name of Object.keys(fn.outputs?.properties ?? {}))
        assert.deepEqual(result[name], expected[name], name);
      assert.equal(record.versions.get(token), packageVersion);
    });

    it('the Output form takes Output arguments and returns an Output of the result', async () => {
      const outputArgs = Object.fromEntries(Object.entries(args).map(([k, v]) => [k, pulumi.output(v)]));
      const result = await valueOf(member<InvokeOutput>(token, 'Output')(outputArgs));
      const call = record.calls.filter((c) => c.token === token).at(-1);
      assert.deepEqual(call?.inputs, args);
      for (const name of Object.keys(fn.outputs?.properties ?? {}))
        assert.deepEqual(result[name], expected[name], name);
    });
  });
}

describe('Provider (pulumi:providers:oci)', () => {
  const inputs = schema.provider?.inputProperties ?? {};

  it('passes its settings, JSON-encoding non-string ones, with secrets as additional secret outputs', async () => {
    const args = samples(inputs);
    const provider = new oci.Provider('explicit', args as import('../src').ProviderArgs);
    await valueOf(provider.urn);
    const sent = record.resources.find((r) => r.type === 'pulumi:providers:oci' && r.name === 'explicit');
    assert.ok(sent, 'the provider was registered');
    for (const [name, spec] of Object.entries(inputs)) {
      const value = spec.type === 'string' ? args[name] : JSON.stringify(args[name]);
      // The mock monitor shows a secret as Pulumi's wire wrapper: sent as a secret, never in plain text.
      const expected = spec.secret ? { [pulumi.runtime.specialSigKey]: pulumi.runtime.specialSecretSig, value } : value;
      assert.deepEqual(sent.inputs[name], expected, name);
    }
    const secrets = Object.entries(inputs)
      .filter(([, p]) => p.secret)
      .map(([n]) => n);
    assert.ok(secrets.length > 0, 'the schema marks secret settings');
    assert.deepEqual([...(record.additionalSecretOutputs.get('pulumi:providers:oci') ?? [])].sort(), secrets.sort());
    assert.equal(record.versions.get('pulumi:providers:oci'), packageVersion);
    assert.equal(oci.Provider.isInstance(provider), true);
  });

  it('is what a resource with { provider } is created with', async () => {
    const provider = new oci.Provider('for-resource', { region: 'us-phoenix-1' });
    const [token, res] = resources[0]!;
    const resource = new (member<ResourceClass>(token))('with-provider', samples(res.inputProperties), { provider });
    await valueOf(resource.urn);
    const sent = record.resources.find((r) => r.name === 'with-provider');
    assert.equal(sent?.provider, `${await valueOf(provider.urn)}::${await valueOf(provider.id)}`);
  });
});

describe('config', () => {
  const variables = Object.entries(schema.config?.variables ?? {});
  const config = oci.config as unknown as Record<string, unknown>;

  it('reads every oci:* stack setting', () => {
    const values = Object.fromEntries(variables.map(([n, p]) => [n, sample(n, p)]));
    pulumi.runtime.setAllConfig(
      Object.fromEntries(
        Object.entries(values).map(([n, v]) => [`oci:${n}`, typeof v === 'string' ? v : JSON.stringify(v)]),
      ),
    );
    for (const [name] of variables) assert.deepEqual(config[name], values[name], name);
  });

  it('falls back to the environment variables the schema names', () => {
    pulumi.runtime.setAllConfig({});
    const withEnv = variables.filter(([, p]) => p.defaultInfo?.environment?.length);
    assert.ok(withEnv.length > 0, 'the schema gives environment defaults');
    for (const [name, spec] of withEnv) {
      const env = spec.defaultInfo!.environment![0]!;
      const saved = process.env[env];
      const expected =
        spec.type === 'boolean' ? true : spec.type === 'integer' || spec.type === 'number' ? 42 : `${name}-env`;
      process.env[env] = String(expected);
      try {
        assert.deepEqual(config[name], expected, `${name} from ${env}`);
      } finally {
        if (saved === undefined) delete process.env[env];
        else process.env[env] = saved;
      }
    }
  });
});
