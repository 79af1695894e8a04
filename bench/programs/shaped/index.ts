import * as pulumi from "@pulumi/pulumi";

// The outputs of one monitor as its state holds them, and its secret outputs, given by the benchmark.
// Read by the provider at run time: a value captured here would be serialized into every resource.
const provider: pulumi.dynamic.ResourceProvider = {
  async create(inputs) {
    return {
      id: `shaped-${inputs.i}`,
      outs: { ...JSON.parse(process.env.BENCH_SHAPE ?? "{}"), i: inputs.i, v: inputs.v },
    };
  },
  async diff(_id, olds, news) {
    return { changes: olds.v !== news.v };
  },
  async update(_id, olds, news) {
    return { outs: { ...olds, v: news.v } };
  },
};

class Shaped extends pulumi.dynamic.Resource {}

const config = new pulumi.Config();
const count = config.requireNumber("count");
const interval = config.getNumber("interval") ?? 60;
const secrets: string[] = JSON.parse(process.env.BENCH_SHAPE_SECRETS ?? "[]");
for (let i = 0; i < count; i++) new Shaped(provider, `s${i}`, { i, v: interval }, { additionalSecretOutputs: secrets });
