"use strict";
const uptime = require("pulumi-uptime");

const api = new uptime.Monitor("api", { type: "http", url: "https://api.example.com/health", intervalSec: 60 });

exports.monitorId = api.id;
// What the language host started Node with, and whether it loaded ts-node (typescript: false).
exports.execArgv = process.execArgv;
exports.typescript = Boolean(require.extensions[".ts"]);
