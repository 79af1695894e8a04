// The import graph's rules, checked by `npm run lint` (dependency-cruiser): no circle of imports,
// and each layer imports only the layers below it. Folders, from the bottom: api/ (the schemas
// both sides share), then provider/ and server/ (neither imports the other), then plugin/.
// Inside server/: the store (server/store/) is below the services, routes and the monitoring.

/**
 * A layer rule: files whose path matches `from` import nothing whose path matches `to`.
 * @param {string} name
 * @param {string} comment why, as lint prints it
 * @param {string} from
 * @param {string} to
 * @param {object} [only] further conditions on the imports refused (e.g. value imports only)
 */
const layer = (name, comment, from, to, only = {}) => ({
  name,
  severity: "error",
  comment,
  from: { path: from },
  to: { path: to, ...only },
});

/** @type {import("dependency-cruiser").IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "A circle of imports, even through types only: move what both sides need below them.",
      from: {},
      to: { circular: true },
    },
    layer(
      "api-is-the-bottom",
      "api/ is shared by the provider, the server and the plugin: it imports none of them.",
      "^api/",
      "^(server|provider|plugin)/",
    ),
    layer(
      "provider-without-server",
      "The provider talks to the service over HTTP only: it imports neither the server nor the plugin.",
      "^provider/",
      "^(server|plugin)/",
    ),
    layer(
      "server-without-provider",
      "The server imports neither the provider nor the plugin.",
      "^server/",
      "^(provider|plugin)/",
    ),
    layer(
      "store-below-the-server",
      "The store is the bottom of the server: it imports no service, route, HTTP hook or monitoring part.",
      "^server/store/",
      "^server/(services|routes|http|checker|notify|agents|html|ops|monitoring|app)",
    ),
    layer(
      "services-below-the-routes",
      "A service is called by routes; it imports no route.",
      "^server/services/",
      "^server/routes/",
    ),
    layer(
      "routes-through-services",
      "A route calls a service, never a repository: it may name the store's types, but imports no value from it.",
      "^server/routes/",
      "^server/store/",
      { dependencyTypesNot: ["type-only"] },
    ),
    layer(
      "html-renders-views",
      "The templates render the views the services give them: they import no service, route or store.",
      "^server/html/",
      "^server/(services|routes|store|http|checker|notify|agents|ops|monitoring|app)",
    ),
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(dist|node_modules)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".mts", ".js", ".mjs", ".cjs", ".json"] },
  },
};
