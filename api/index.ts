export * from "./channel";
export * from "./common";
export * from "./fields";
export * from "./heartbeat";
export * from "./issues";
export * from "./monitor";
export * from "./monitor-rules";
export * from "./status-page";
