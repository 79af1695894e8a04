// Command uptime-sdkgen-java writes the Java SDK of the native uptime plugin from its schema, with
// pulumi-java's own code generator (github.com/pulumi/pulumi-java/pkg/codegen/java), as
// `pulumi-java-gen` does. It lives in this module, not in tools/uptime-sdkgen, because pulumi-java
// v1.17.0 is built against pulumi/pkg v3.205.0 and the other generators against v3.259.0.
//
// The SDK is the Java package `com.pulumi.uptime` (the generator's default base package,
// `com.pulumi.`, plus the schema's name) with no build files: plugin/build/java.ts writes the
// Maven pom.xml that builds and installs it.
//
// Usage: uptime-sdkgen-java <schema.json> <out-dir> <version>
package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/blang/semver"
	javagen "github.com/pulumi/pulumi-java/pkg/codegen/java"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"pulumi-uptime/tools/genfiles"
)

const tool = "pulumi-uptime-sdkgen-java"

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: uptime-sdkgen-java <schema.json> <out-dir> <version>")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2], os.Args[3]); err != nil {
		fmt.Fprintf(os.Stderr, "error: %v\n", err)
		os.Exit(1)
	}
}

func run(schemaPath, outDir, version string) error {
	v, err := semver.ParseTolerant(version)
	if err != nil {
		return fmt.Errorf("version %q: %w", version, err)
	}
	data, err := os.ReadFile(schemaPath)
	if err != nil {
		return err
	}
	var raw schema.PackageSpec
	if err := json.Unmarshal(data, &raw); err != nil {
		return fmt.Errorf("%s: %w", schemaPath, err)
	}
	// Java has one class per object type: the generator merges types that differ only in case.
	spec, diags, err := javagen.DeduplicateTypes(&raw)
	if err != nil {
		return fmt.Errorf("%s: %w", schemaPath, err)
	}
	if diags.HasErrors() {
		return diags
	}
	pkg, err := schema.ImportSpec(*spec, nil, schema.ValidationOptions{})
	if err != nil {
		return fmt.Errorf("%s: %w", schemaPath, err)
	}
	pkg.Version = &v
	// No Gradle files: the SDK is built with Maven (plugin/build/java.ts).
	pkg.Language["java"] = javagen.PackageInfo{BuildFiles: "none"}
	files, err := javagen.GeneratePackage(tool, pkg, nil, nil, false, true)
	if err != nil {
		return err
	}
	return genfiles.Write(outDir, files)
}
