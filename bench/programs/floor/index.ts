import * as pulumi from "@pulumi/pulumi";

const provider: pulumi.dynamic.ResourceProvider = {
  async create(inputs) {
    return { id: `empty-${inputs.i}`, outs: inputs };
  },
  async diff(_id, olds, news) {
    return { changes: olds.v !== news.v };
  },
  async update(_id, _olds, news) {
    return { outs: news };
  },
};

class Empty extends pulumi.dynamic.Resource {}

const config = new pulumi.Config();
const count = config.requireNumber("count");
const interval = config.getNumber("interval") ?? 60;
for (let i = 0; i < count; i++) new Empty(provider, `e${i}`, { i, v: interval }, {});
