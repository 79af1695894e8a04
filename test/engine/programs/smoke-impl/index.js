// Implementation loaded by the smoke program's dynamic provider at run time.
const { randomUUID } = require("node:crypto");

const outputs = (inputs) => ({ name: inputs.name, message: `hello, ${inputs.name}` });

exports.create = async (inputs) => ({ id: `greeting-${randomUUID()}`, outs: outputs(inputs) });
exports.diff = async (_id, olds, news) => ({
  changes: olds.name !== news.name,
  replaces: [],
  detailedDiff: olds.name !== news.name ? { name: { kind: "update", inputDiff: true } } : {},
});
exports.update = async (_id, _olds, news) => ({ outs: outputs(news) });
