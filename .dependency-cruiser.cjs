// The import graph's rules, checked by `npm run lint` (dependency-cruiser): no circle of imports,
// and each layer imports only the layers below it. Folders, from the bottom: api/ (the schemas
// both sides share), then provider/ and server/ (neither imports the other), then plugin/.
// Inside server/: the store (server/store/) is below the services, routes and the monitoring.
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
    {
      name: "api-is-the-bottom",
      severity: "error",
      comment: "api/ is shared by the provider, the server and the plugin: it imports none of them.",
      from: { path: "^api/" },
      to: { path: "^(server|provider|plugin)/" },
    },
    {
      name: "provider-without-server",
      severity: "error",
      comment: "The provider talks to the service over HTTP only: it imports neither the server nor the plugin.",
      from: { path: "^provider/" },
      to: { path: "^(server|plugin)/" },
    },
    {
      name: "server-without-provider",
      severity: "error",
      comment: "The server imports neither the provider nor the plugin.",
      from: { path: "^server/" },
      to: { path: "^(provider|plugin)/" },
    },
    {
      name: "store-below-the-server",
      severity: "error",
      comment: "The store is the bottom of the server: it imports no service, route, HTTP hook or monitoring part.",
      from: { path: "^server/store/" },
      to: { path: "^server/(services|routes|http|checker|notify|agents|html|ops|monitoring|app)" },
    },
    {
      name: "services-below-the-routes",
      severity: "error",
      comment: "A service is called by routes; it imports no route.",
      from: { path: "^server/services/" },
      to: { path: "^server/routes/" },
    },
    {
      name: "routes-through-services",
      severity: "error",
      comment:
        "A route calls a service, never a repository: it may name the store's types, but imports no value from it.",
      from: { path: "^server/routes/" },
      to: { path: "^server/store/", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "html-renders-views",
      severity: "error",
      comment: "The templates render the views the services give them: they import no service, route or store.",
      from: { path: "^server/html/" },
      to: { path: "^server/(services|routes|store|http|checker|notify|agents|ops|monitoring|app)" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(dist|node_modules)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".mts", ".js", ".mjs", ".cjs", ".json"] },
  },
};
