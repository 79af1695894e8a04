//go:build tools

// Package tools pins the Pulumi CLI built by scripts/ensure-pulumi.mjs. Its version must equal
// the @pulumi/pulumi version in package.json.
package tools

import (
	_ "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi"
)
