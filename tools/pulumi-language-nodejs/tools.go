//go:build tools

// Package tools pins the Pulumi Node.js language host built by scripts/ensure-pulumi.mjs.
package tools

import (
	_ "github.com/pulumi/pulumi/sdk/v3/nodejs/cmd/pulumi-language-nodejs"
)
