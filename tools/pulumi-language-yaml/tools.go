//go:build tools

// Package tools pins the Pulumi YAML language host built by scripts/ensure-pulumi.mjs. It runs
// YAML programs against the native uptime plugin.
package tools

import (
	_ "github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml"
)
