import * as pulumi from "@pulumi/pulumi";
import * as uptime from "pulumi-uptime";

const api = new uptime.Monitor("api", { type: "http", url: "https://api.example.com/health", intervalSec: 60, tags: ["shape"] });
const search = new uptime.Monitor("search", { type: "keyword", url: "https://search.example.com/", keyword: "results", intervalSec: 60 });
const job = new uptime.Monitor("job", { type: "heartbeat", intervalSec: 300 });

/** A value as the program reads it, `undefined` spelled out (a stack output cannot hold it). */
const read = (o: pulumi.Output<unknown>) => o.apply((v) => (v === undefined ? "undefined" : JSON.stringify(v)));

export const ids = { api: api.id, search: search.id, job: job.id };
export const reads = {
  apiKeyword: read(api.keyword),
  apiGraceSec: read(api.graceSec),
  apiSslExpiryDays: read(api.sslExpiryDays),
  apiMethod: read(api.method),
  apiFollowRedirects: read(api.followRedirects),
  searchKeywordCaseSensitive: read(search.keywordCaseSensitive),
  jobMethod: read(job.method),
  jobGraceSec: read(job.graceSec),
  jobHasPushUrl: job.pushUrl.apply((u) => typeof u === "string" && u.length > 0),
};
