//go:build tools

// Package tools pins the Pulumi Python language host built by scripts/ensure-pulumi.mjs.
package tools

import (
	_ "github.com/pulumi/pulumi/sdk/v3/python/cmd/pulumi-language-python"
)
