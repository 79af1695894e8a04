// Command uptime-sdkgen writes the Python, Go and Node.js SDKs of the native uptime plugin from
// its schema, with the Pulumi CLI's own code generators (pkg/v3/codegen).
//
// Workaround: `pulumi package gen-sdk` asks the language host to generate the SDK, and the hosts
// this project builds (v3.68-era Node and Python, see tools/pulumi-language-*) do not implement
// GeneratePackage. Calling the generators directly gives the same output. Remove this tool once
// the split-out language hosts can be built from the module proxy.
//
// Usage: uptime-sdkgen <schema.json> <out-dir> [python|go|nodejs]...
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"

	"github.com/blang/semver"
	"pulumi-uptime/tools/genfiles"
)

const tool = "pulumi-uptime-sdkgen"

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: uptime-sdkgen <schema.json> <out-dir> [python|go|nodejs]...")
		os.Exit(2)
	}
	languages := os.Args[3:]
	if len(languages) == 0 {
		languages = []string{"python", "go", "nodejs"}
	}
	if err := run(os.Args[1], os.Args[2], languages); err != nil {
		fmt.Fprintf(os.Stderr, "error: %v\n", err)
		os.Exit(1)
	}
}

func run(schemaPath, outDir string, languages []string) error {
	for _, lang := range languages {
		// Each generator records its language options on the package, so bind afresh per language.
		pkg, err := load(schemaPath)
		if err != nil {
			return err
		}
		files, err := generate(lang, pkg)
		if err != nil {
			return fmt.Errorf("%s: %w", lang, err)
		}
		if err := genfiles.Write(filepath.Join(outDir, lang), files); err != nil {
			return err
		}
	}
	return nil
}

// noPackages is the loader of a schema that references no other package.
type noPackages struct{}

func (noPackages) LoadPackage(pkg string, _ *semver.Version) (*schema.Package, error) {
	return nil, fmt.Errorf("the uptime schema references no other package (asked for %q)", pkg)
}

func (l noPackages) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return l.LoadPackage(d.Name, nil)
}

func (l noPackages) LoadPackageReference(pkg string, _ *semver.Version) (schema.PackageReference, error) {
	return nil, fmt.Errorf("the uptime schema references no other package (asked for %q)", pkg)
}

func (l noPackages) LoadPackageReferenceV2(_ context.Context, d *schema.PackageDescriptor) (schema.PackageReference, error) {
	return l.LoadPackageReference(d.Name, nil)
}

// load reads and validates the schema.
func load(path string) (*schema.Package, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(data, &spec); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	pkg, diags, err := schema.BindSpec(spec, noPackages{}, schema.ValidationOptions{})
	if err != nil {
		return nil, err
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return pkg, nil
}

func generate(lang string, pkg *schema.Package) (map[string][]byte, error) {
	switch lang {
	case "python":
		return python.GeneratePackage(tool, pkg, nil, noPackages{})
	case "nodejs":
		return nodejs.GeneratePackage(tool, pkg, nil, nil, false, noPackages{})
	case "go":
		withoutFunctionInputDefaults(pkg)
		return gogen.GeneratePackage(tool, pkg, nil)
	}
	return nil, fmt.Errorf("unknown language %q (want python, go or nodejs)", lang)
}

// withoutFunctionInputDefaults leaves the defaults of function inputs to the provider (the
// service applies the same ones), stating them in the property's comment instead.
//
// Workaround: for a function whose inputs have defaults, the Go generator wraps the output form's
// arguments in one Output (ApplyT(args.Defaults())), and the Go SDK (sdk/v3 v3.259.0,
// Context.invokePackageRaw) marshals an Output argument that depends on a resource as an output
// value, not an object, so the provider receives no arguments at all: GetMonitorStatsOutput with
// a monitor's ID sends {}. Without defaults the generator passes the arguments struct as it is,
// whose fields the SDK marshals one by one. Remove this once the Go SDK sends the wrapped
// arguments.
func withoutFunctionInputDefaults(pkg *schema.Package) {
	for _, f := range pkg.Functions {
		if f.Inputs == nil {
			continue
		}
		// The plain and the input shape have properties of their own.
		shapes := []*schema.ObjectType{f.Inputs, f.Inputs.InputShape}
		for _, shape := range shapes {
			if shape == nil {
				continue
			}
			for _, p := range shape.Properties {
				if p.DefaultValue != nil && p.DefaultValue.Value != nil {
					p.Comment = strings.TrimSpace(fmt.Sprintf("%s Default: %v.", p.Comment, p.DefaultValue.Value))
				}
				p.DefaultValue = nil
			}
		}
	}
}
