export * from "./channel";
export * from "./common";
export * from "./heartbeat";
export * from "./issues";
export * from "./monitor";
export * from "./status-page";
export * from "./maintenance-window";
export * from "./monitor-extensions";
