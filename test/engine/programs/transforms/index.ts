import * as pulumi from "@pulumi/pulumi";
import * as uptime from "pulumi-uptime";

const TEAM_TAG = "team:payments";

// Every Monitor of the stack gets the team's tag, whatever tags its program gave.
pulumi.runtime.registerResourceTransform((args) => {
  if (args.type !== uptime.Monitor.__pulumiType) return undefined;
  const tags = (args.props.tags as string[] | undefined) ?? [];
  return { props: { ...args.props, tags: tags.includes(TEAM_TAG) ? tags : [...tags, TEAM_TAG] }, opts: args.opts };
});

const api = new uptime.Monitor("api", { type: "http", url: "https://api.example.com/health", intervalSec: 60, tags: ["prod"] });
const web = new uptime.Monitor("web", { type: "http", url: "https://www.example.com/", intervalSec: 300 });
const pager = new uptime.Channel("pager", { type: "webhook", config: { url: "https://hooks.example.com/pager" } });

export const monitorIds = [api.id, web.id];
export const channelId = pager.id;
