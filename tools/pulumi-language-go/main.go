// Command pulumi-language-go runs Pulumi programs written in Go (`runtime: go`) for the engine:
// it builds the program with the Go toolchain on PATH and runs it with the engine's addresses and
// the stack's config in the environment variables the Go SDK reads (sdk/v3/go/pulumi).
//
// Workaround: Pulumi's own Go language host is the module
// github.com/pulumi/pulumi/sdk/go/pulumi-language-go/v3, and the Go module proxy this project
// builds from refuses every version of it (403 "This module version is not available", also for
// the version list), and no release of github.com/pulumi/pulumi/sdk/v3 that the proxy serves
// (v3.68.0 and newer) still carries the host. This host implements the calls the engine needs to
// deploy a program: plugin info, the program's required plugins, dependency installation and Run.
// Remove it, and build upstream's host as tools/pulumi-language-python does, once the proxy
// serves that module.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/common/constant"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/emptypb"
)

// version is the host's version as the engine's `pulumi about` shows it.
const version = "3.259.0"

func main() {
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: pulumi-language-go <engine address>")
		os.Exit(2)
	}
	host := &goHost{engineAddress: flag.Arg(0)}
	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Init: func(srv *grpc.Server) error {
			pulumirpc.RegisterLanguageRuntimeServer(srv, host)
			return nil
		},
		Options: rpcutil.OpenTracingServerInterceptorOptions(nil),
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "error: could not start the Go language host: %v\n", err)
		os.Exit(1)
	}
	// The engine reads the port from the first line of stdout.
	fmt.Printf("%d\n", handle.Port)
	if err := <-handle.Done; err != nil {
		fmt.Fprintf(os.Stderr, "error: %v\n", err)
		os.Exit(1)
	}
}

type goHost struct {
	pulumirpc.UnimplementedLanguageRuntimeServer
	engineAddress string
}

func (h *goHost) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: version}, nil
}

// programDir is where the program's go.mod is: the program directory when the engine names one.
func programDir(info *pulumirpc.ProgramInfo, pwd string) string {
	if info != nil && info.ProgramDirectory != "" {
		return info.ProgramDirectory
	}
	return pwd
}

// pluginFile is what a generated Go SDK ships beside its package: pulumi-plugin.json.
type pluginFile struct {
	Resource bool   `json:"resource"`
	Name     string `json:"name"`
	Version  string `json:"version"`
	Server   string `json:"server"`
}

// GetRequiredPlugins reports the resource plugins of the SDKs the program imports (their
// pulumi-plugin.json), so the engine can install them (from pluginDownloadURL) before the run.
func (h *goHost) GetRequiredPlugins(ctx context.Context, req *pulumirpc.GetRequiredPluginsRequest) (*pulumirpc.GetRequiredPluginsResponse, error) {
	cmd := exec.CommandContext(ctx, "go", "list", "-deps", "-f", "{{.Dir}}", ".")
	cmd.Dir = programDir(req.Info, req.Pwd)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list in %s: %w: %s", cmd.Dir, err, stderr.String())
	}
	var plugins []*pulumirpc.PluginDependency
	for _, dir := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		data, err := os.ReadFile(filepath.Join(dir, "pulumi-plugin.json"))
		if err != nil {
			continue
		}
		var p pluginFile
		if json.Unmarshal(data, &p) != nil || !p.Resource {
			continue
		}
		plugins = append(plugins, &pulumirpc.PluginDependency{Name: p.Name, Kind: "resource", Version: p.Version, Server: p.Server})
	}
	return &pulumirpc.GetRequiredPluginsResponse{Plugins: plugins}, nil
}

// InstallDependencies downloads the program's modules (`pulumi install`).
func (h *goHost) InstallDependencies(req *pulumirpc.InstallDependenciesRequest, server pulumirpc.LanguageRuntime_InstallDependenciesServer) error {
	cmd := exec.CommandContext(server.Context(), "go", "mod", "download")
	cmd.Dir = programDir(req.Info, req.Directory)
	out, err := cmd.CombinedOutput()
	if sendErr := server.Send(&pulumirpc.InstallDependenciesResponse{Stdout: out}); sendErr != nil {
		return sendErr
	}
	if err != nil {
		return fmt.Errorf("go mod download in %s: %w", cmd.Dir, err)
	}
	return nil
}

// Run builds the program into a temporary folder and runs it with the engine's settings.
func (h *goHost) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	dir := programDir(req.Info, req.Pwd)
	tmp, err := os.MkdirTemp("", "pulumi-go-program-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	binary := filepath.Join(tmp, "program")
	build := exec.CommandContext(ctx, "go", "build", "-o", binary, ".")
	build.Dir = dir
	if out, err := build.CombinedOutput(); err != nil {
		// The compiler's messages name the file, line and types: the error the engine shows.
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("the Go program in %s did not compile (%v):\n%s", dir, err, out)}, nil
	}
	env, err := h.programEnv(req)
	if err != nil {
		return nil, err
	}
	program := exec.CommandContext(ctx, binary, req.Args...)
	program.Dir = req.Pwd
	program.Env = env
	program.Stdout, program.Stderr = os.Stdout, os.Stderr
	err = program.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return &pulumirpc.RunResponse{}, nil
	case errors.As(err, &exit) && exit.ExitCode() == constant.ExitStatusLoggedError:
		// The SDK already reported the error to the engine.
		return &pulumirpc.RunResponse{Bail: true}, nil
	default:
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("the Go program failed: %v", err)}, nil
	}
}

// programEnv is this process's environment plus the variables pulumi.Run reads.
func (h *goHost) programEnv(req *pulumirpc.RunRequest) ([]string, error) {
	config, err := json.Marshal(req.Config)
	if err != nil {
		return nil, err
	}
	secretKeys, err := json.Marshal(req.ConfigSecretKeys)
	if err != nil {
		return nil, err
	}
	env := os.Environ()
	set := func(k, v string) { env = append(env, k+"="+v) }
	set(pulumi.EnvOrganization, req.Organization)
	set(pulumi.EnvProject, req.Project)
	set(pulumi.EnvStack, req.Stack)
	set(pulumi.EnvConfig, string(config))
	set(pulumi.EnvConfigSecretKeys, string(secretKeys))
	set(pulumi.EnvParallel, strconv.Itoa(int(req.Parallel)))
	set(pulumi.EnvDryRun, strconv.FormatBool(req.DryRun))
	set(pulumi.EnvMonitor, req.MonitorAddress)
	set(pulumi.EnvEngine, h.engineAddress)
	if req.Info != nil && req.Info.RootDirectory != "" {
		set(pulumi.EnvPulumiRootDirectory, req.Info.RootDirectory)
	}
	return env, nil
}
