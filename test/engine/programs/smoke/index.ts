import * as pulumi from "@pulumi/pulumi";

// The program has no @types/node of its own.
declare const require: (id: string) => typeof import("smoke-impl");

// The serialized provider holds no logic: each method loads the implementation by package name,
// so the code installed now runs, whatever state was written by.
const provider: pulumi.dynamic.ResourceProvider = {
  async create(inputs) {
    return require("smoke-impl").create(inputs);
  },
  async diff(id, olds, news) {
    return require("smoke-impl").diff(id, olds, news);
  },
  async update(id, olds, news) {
    return require("smoke-impl").update(id, olds, news);
  },
};

class Greeting extends pulumi.dynamic.Resource {
  public readonly message!: pulumi.Output<string>;
  constructor(name: string, args: { name: pulumi.Input<string> }) {
    super(provider, name, { name: args.name, message: undefined }, {}, "smoke", "Greeting");
  }
}

const config = new pulumi.Config();
const greeting = new Greeting("hello", { name: config.get("name") ?? "world" });
export const message = greeting.message;
export const id = greeting.id;
