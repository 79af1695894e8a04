//go:build tools

// Package tools pins the Java language host, built from pulumi-java's Go module at the version
// go.mod requires (scripts/ensure-pulumi.mjs, ensureJavaTools), in a module of its own: pulumi-java
// v1.17.0 needs pulumi/pkg v3.205.0, not the v3.259.0 of the other recipes. Resolving it needs
// GONOSUMDB for github.com/pulumi/pulumi-java (the checksum database does not answer for it);
// go.sum then holds its hashes, checked on every build.
package tools

import (
	_ "github.com/pulumi/pulumi-java/pkg/cmd/pulumi-language-java"
)
