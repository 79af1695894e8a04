export { API_VERSION, buildApp } from "./app";
export { type ServerOptions, type ServerOptionsInput, ServerOptionsSchema } from "./config";
export { ApiError } from "./errors";
export { Store } from "./store";
