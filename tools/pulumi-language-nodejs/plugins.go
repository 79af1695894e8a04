package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	sdk "github.com/pulumi/pulumi/sdk/v3"
	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	"github.com/pulumi/pulumi/sdk/v3/nodejs/npm"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// packageJSON is what this host reads of a package.json.
type packageJSON struct {
	Name    string                  `json:"name"`
	Version string                  `json:"version"`
	Pulumi  plugin.PulumiPluginJSON `json:"pulumi"`
}

// GetRequiredPackages reports the resource plugins of the packages installed for the program
// (`"pulumi": { "resource": true }` in their package.json), so the engine can load or install them.
func (h *nodeHost) GetRequiredPackages(_ context.Context, req *pulumirpc.GetRequiredPackagesRequest) (*pulumirpc.GetRequiredPackagesResponse, error) {
	var found []*pulumirpc.PackageDependency
	scanModules(filepath.Join(req.Info.ProgramDirectory, "node_modules"), map[string]bool{}, &found)
	return &pulumirpc.GetRequiredPackagesResponse{Packages: found}, nil
}

// GetRequiredPlugins is the older form of GetRequiredPackages, for engines that still call it.
func (h *nodeHost) GetRequiredPlugins(ctx context.Context, req *pulumirpc.GetRequiredPluginsRequest) (*pulumirpc.GetRequiredPluginsResponse, error) {
	packages, err := h.GetRequiredPackages(ctx, &pulumirpc.GetRequiredPackagesRequest{Info: req.Info})
	if err != nil {
		return nil, err
	}
	plugins := make([]*pulumirpc.PluginDependency, len(packages.Packages))
	for i, p := range packages.Packages {
		plugins[i] = &pulumirpc.PluginDependency{Name: p.Name, Kind: p.Kind, Version: p.Version, Server: p.Server}
	}
	return &pulumirpc.GetRequiredPluginsResponse{Plugins: plugins}, nil
}

// scanModules visits each package in a node_modules folder (scoped ones, nested node_modules and
// symlinked folders too, each real folder once) and collects the ones that name a resource plugin.
// A package.json it cannot use is skipped with a warning: one odd package must not stop a run.
func scanModules(modules string, seen map[string]bool, found *[]*pulumirpc.PackageDependency) {
	real, err := filepath.EvalSymlinks(modules)
	if err != nil || seen[real] {
		return // no node_modules here, or already visited
	}
	seen[real] = true
	entries, err := os.ReadDir(real)
	if err != nil {
		fmt.Fprintf(os.Stderr, "warning: skipping %s: %v\n", modules, err)
		return
	}
	for _, entry := range entries {
		dir := filepath.Join(real, entry.Name())
		if strings.HasPrefix(entry.Name(), "@") {
			scanModules(dir, seen, found)
			continue
		}
		manifest := filepath.Join(dir, "package.json")
		data, err := os.ReadFile(manifest)
		if err != nil {
			continue // not a package (.bin, .package-lock.json)
		}
		var pkg packageJSON
		dep, err := (*pulumirpc.PackageDependency)(nil), json.Unmarshal(data, &pkg)
		if err == nil {
			dep, err = pluginOf(pkg)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "warning: skipping %s: %v\n", manifest, err)
		} else if dep != nil {
			*found = append(*found, dep)
		}
		scanModules(filepath.Join(dir, "node_modules"), seen, found)
	}
}

// pluginOf is the resource plugin a package names, if any: `pulumi.name` (or the name of an
// @pulumi/ package), `pulumi.version` (or the package's), `pulumi.server`, and parameterization.
func pluginOf(pkg packageJSON) (*pulumirpc.PackageDependency, error) {
	p := pkg.Pulumi
	if !p.Resource {
		return nil, nil
	}
	name := p.Name
	if name == "" && strings.HasPrefix(pkg.Name, "@pulumi/") {
		name = strings.TrimPrefix(pkg.Name, "@pulumi/")
	}
	if name == "" {
		return nil, fmt.Errorf(`package %q sets "pulumi.resource" but no "pulumi.name"`, pkg.Name)
	}
	version := p.Version
	if version == "" {
		version = pkg.Version
	}
	if version != "" && !strings.HasPrefix(version, "v") {
		version = "v" + version
	}
	dep := &pulumirpc.PackageDependency{Name: name, Kind: "resource", Version: version, Server: p.Server}
	if q := p.Parameterization; q != nil {
		dep.Parameterization = &pulumirpc.PackageParameterization{Name: q.Name, Version: q.Version, Value: q.Value}
	}
	if q := p.ExtensionParameterization; q != nil {
		dep.Extension = &pulumirpc.PackageParameterization{Name: q.Name, Version: q.Version, Value: q.Value}
	}
	return dep, nil
}

// InstallDependencies installs the program's (or a policy pack's) packages with its package
// manager (`pulumi install`), from the workspace root when the program is in a workspace.
func (h *nodeHost) InstallDependencies(req *pulumirpc.InstallDependenciesRequest, server pulumirpc.LanguageRuntime_InstallDependenciesServer) error {
	closer, stdout, stderr, err := rpcutil.MakeInstallDependenciesStreams(server, req.IsTerminal)
	if err != nil {
		return err
	}
	defer closer.Close()
	opts, err := parseOptions(req.Info)
	if err != nil {
		return err
	}
	dir := req.Info.ProgramDirectory
	if root, err := npm.FindWorkspaceRoot(dir); err == nil {
		dir = root
	} else if !errors.Is(err, npm.ErrNotInWorkspace) {
		return fmt.Errorf("looking for the workspace root of %s: %w", dir, err)
	}
	if _, err := npm.Install(server.Context(), opts.packagemanager, dir, opts.production, stdout, stderr); err != nil {
		return fmt.Errorf("installing the dependencies in %s: %w", dir, err)
	}
	return closer.Close()
}

// GetProgramDependencies lists the program's installed packages (`pulumi about`).
func (h *nodeHost) GetProgramDependencies(ctx context.Context, req *pulumirpc.GetProgramDependenciesRequest) (*pulumirpc.GetProgramDependenciesResponse, error) {
	opts, err := parseOptions(req.Info)
	if err != nil {
		return nil, err
	}
	pm, err := npm.ResolvePackageManager(opts.packagemanager, req.Info.ProgramDirectory)
	if err != nil {
		return nil, err
	}
	packages, err := pm.ListPackages(ctx, req.Info.ProgramDirectory, req.TransitiveDependencies)
	if err != nil {
		return nil, fmt.Errorf("listing the packages of %s: %w", req.Info.ProgramDirectory, err)
	}
	deps := make([]*pulumirpc.DependencyInfo, len(packages))
	for i, p := range packages {
		deps[i] = &pulumirpc.DependencyInfo{Name: p.Name, Version: p.Version}
	}
	return &pulumirpc.GetProgramDependenciesResponse{Dependencies: deps}, nil
}

// About names Node and the package manager (`pulumi about`).
func (h *nodeHost) About(ctx context.Context, req *pulumirpc.AboutRequest) (*pulumirpc.AboutResponse, error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, fmt.Errorf("could not find node on PATH: %w", err)
	}
	out, err := exec.CommandContext(ctx, node, "--version").Output()
	if err != nil {
		return nil, fmt.Errorf("%s --version: %w", node, err)
	}
	meta := map[string]string{}
	if opts, err := parseOptions(req.Info); err == nil && req.Info != nil {
		if pm, err := npm.ResolvePackageManager(opts.packagemanager, req.Info.ProgramDirectory); err == nil {
			meta["packagemanager"] = pm.Name()
		}
	}
	return &pulumirpc.AboutResponse{Executable: node, Version: strings.TrimSpace(string(out)), Metadata: meta}, nil
}

// RunPlugin runs a plugin written for Node: a policy pack (kind analyzer, `pulumi preview
// --policy-pack`) through the SDK's cmd/run-policy-pack, any other through cmd/run-plugin.
func (h *nodeHost) RunPlugin(req *pulumirpc.RunPluginRequest, server pulumirpc.LanguageRuntime_RunPluginServer) error {
	ctx := server.Context()
	if req.AttachDebugger {
		return errors.New("this Node.js language host cannot attach a debugger")
	}
	closer, stdout, stderr, err := rpcutil.MakeRunPluginStreams(server, false)
	if err != nil {
		return err
	}
	defer closer.Close()
	dir := req.Info.ProgramDirectory
	policyPack := req.Kind == string(apitype.AnalyzerPlugin)
	module := "@pulumi/pulumi/cmd/run-plugin"
	if policyPack {
		module = "@pulumi/pulumi/cmd/run-policy-pack"
	}
	node, args, opts, err := nodeCommand(ctx, req.Info, module)
	if err != nil {
		return err
	}
	env := opts.env(append(os.Environ(), req.Env...))
	var proxy *sdk.PolicyProxy
	if policyPack {
		// run-policy-pack takes the engine's arguments first and the pack's folder last, and reads
		// the stack from the environment: the proxy answers the engine's ConfigureStack call
		// itself, then hands every later call to the pack.
		args = append(append(args, req.Args...), dir)
		if proxy, stdout, err = sdk.NewPolicyProxy(ctx, stdout); err != nil {
			return fmt.Errorf("could not start the policy pack proxy: %w", err)
		}
		stack, err := proxy.AwaitConfiguration(ctx)
		if err != nil {
			return fmt.Errorf("could not get the stack's configuration: %w", err)
		}
		if env, err = stackEnv(env, stack); err != nil {
			return err
		}
	} else {
		args = append(append(args, dir), req.Args...)
	}
	cmd := exec.CommandContext(ctx, node, args...)
	cmd.Dir = req.Pwd
	if policyPack {
		cmd.Dir = dir // policy packs have always run in their own folder
	}
	cmd.Env, cmd.Stdout, cmd.Stderr = env, stdout, stderr
	if proxy != nil {
		if err = cmd.Start(); err == nil {
			err = proxy.Attach(ctx, cmd)
		}
	} else {
		err = cmd.Run()
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return fmt.Errorf("the plugin in %s exited with code %d", dir, exit.ExitCode())
	} else if err != nil {
		return fmt.Errorf("could not run the plugin in %s: %w", dir, err)
	}
	return closer.Close()
}

// stackEnv adds the stack a policy pack runs for to env, as cmd/run-policy-pack reads it.
func stackEnv(env []string, stack *pulumirpc.AnalyzerStackConfigureRequest) ([]string, error) {
	if stack == nil {
		return env, nil
	}
	set := func(k, v string) {
		if v != "" {
			env = append(env, k+"="+v)
		}
	}
	set("PULUMI_NODEJS_ORGANIZATION", stack.Organization)
	set("PULUMI_NODEJS_PROJECT", stack.Project)
	set("PULUMI_NODEJS_STACK", stack.Stack)
	set("PULUMI_NODEJS_DRY_RUN", strconv.FormatBool(stack.DryRun))
	if stack.Config != nil {
		config, err := json.Marshal(stack.Config)
		if err != nil {
			return nil, err
		}
		set("PULUMI_CONFIG", string(config))
	}
	return env, nil
}
