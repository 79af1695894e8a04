// Command pulumi-language-nodejs runs Pulumi programs and policy packs written for Node.js
// (`runtime: nodejs`) for the engine: it starts Node on the `@pulumi/pulumi/cmd/run` script (or
// `cmd/run-policy-pack`, `cmd/run-plugin`) of the program's own node_modules, with the arguments
// and environment variables those scripts read.
//
// Workaround: Pulumi's own Node language host is the module
// github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3, and the Go module proxy this
// project builds from serves no version of it. The newest host it does serve (inside
// github.com/pulumi/pulumi/sdk/v3 v3.68.0) predates the calls today's engine and SDK use: under it
// a program that registers a resource transform fails, and `pulumi preview --policy-pack` cannot
// start a policy pack. This host implements, on the SDK of the CLI in tools/pulumi-cli, the calls
// the engine makes for Node programs and policy packs (see plugins.go for dependencies, plugins
// and About). Remove it, and build upstream's host as tools/pulumi-cli builds the CLI, once the
// proxy serves that module.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/google/shlex"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	"github.com/pulumi/pulumi/sdk/v3/nodejs/npm"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/emptypb"
)

// version is the host's version as `pulumi about` shows it: the SDK it is built on.
const version = "3.259.0"

// exitLoggedError is the exit code of the SDK's scripts after they reported the error themselves
// (cmd/run's nodeJSProcessExitedAfterLoggingUserActionableMessage).
const exitLoggedError = 32

func main() {
	tracing := flag.String("tracing", "", "a Zipkin-compatible endpoint the program sends its traces to")
	flag.Parse()
	if flag.NArg() > 1 {
		fmt.Fprintln(os.Stderr, "usage: pulumi-language-nodejs [-tracing url] [engine address]")
		os.Exit(2)
	}
	host := &nodeHost{engineAddress: flag.Arg(0), tracing: *tracing}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stop := make(chan bool)
	go func() { <-ctx.Done(); close(stop) }()
	if host.engineAddress != "" {
		// Exit when the engine goes away, not linger as an orphan.
		if err := rpcutil.Healthcheck(ctx, host.engineAddress, 5*time.Minute, cancel); err != nil {
			fmt.Fprintf(os.Stderr, "error: could not watch the engine: %v\n", err)
			os.Exit(1)
		}
	}
	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Cancel: stop,
		Init: func(srv *grpc.Server) error {
			pulumirpc.RegisterLanguageRuntimeServer(srv, host)
			return nil
		},
		Options: rpcutil.OpenTracingServerInterceptorOptions(nil),
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "error: could not start the Node.js language host: %v\n", err)
		os.Exit(1)
	}
	// The engine reads the port from the first line of stdout.
	fmt.Printf("%d\n", handle.Port)
	if err := <-handle.Done; err != nil {
		fmt.Fprintf(os.Stderr, "error: %v\n", err)
		os.Exit(1)
	}
}

type nodeHost struct {
	pulumirpc.UnimplementedLanguageRuntimeServer
	engineAddress string
	tracing       string
}

func (h *nodeHost) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: version}, nil
}

// Handshake is how an engine that started the host without arguments gives its address.
func (h *nodeHost) Handshake(_ context.Context, req *pulumirpc.LanguageHandshakeRequest) (*pulumirpc.LanguageHandshakeResponse, error) {
	h.engineAddress = req.EngineAddress
	return &pulumirpc.LanguageHandshakeResponse{}, nil
}

// options are the project's `runtime.options` this host reads.
type options struct {
	typescript     bool   // run TypeScript through ts-node (default true)
	tsconfig       string // the tsconfig.json ts-node uses
	nodeargs       string // arguments for Node itself, shell-quoted
	packagemanager npm.PackageManagerType
	production     bool // install without devDependencies
}

func parseOptions(info *pulumirpc.ProgramInfo) (options, error) {
	opts := options{typescript: true, packagemanager: npm.AutoPackageManager}
	var raw map[string]any
	if info != nil && info.Options != nil {
		raw = info.Options.AsMap()
	}
	for key, value := range raw {
		var ok bool
		switch key {
		case "typescript":
			opts.typescript, ok = value.(bool)
		case "production":
			opts.production, ok = value.(bool)
		case "tsconfig":
			opts.tsconfig, ok = value.(string)
		case "nodeargs":
			opts.nodeargs, ok = value.(string)
		case "packagemanager":
			var pm string
			pm, ok = value.(string)
			switch pm {
			case "auto", "npm", "yarn", "pnpm", "bun":
				opts.packagemanager = npm.PackageManagerType(pm)
			default:
				return opts, fmt.Errorf("runtime option packagemanager must be one of auto, npm, yarn, pnpm or bun, got %q", pm)
			}
		default:
			ok = true // options of other hosts (e.g. bun's) are not ours to refuse
		}
		if !ok {
			return opts, fmt.Errorf("runtime option %s has the wrong type (%T)", key, value)
		}
	}
	return opts, nil
}

// env is the environment of a Node script: `base` plus the TypeScript settings cmd/run reads.
func (o options) env(base []string) []string {
	if o.typescript {
		base = append(base, "PULUMI_NODEJS_TYPESCRIPT=true")
	}
	if o.tsconfig != "" {
		base = append(base, "PULUMI_NODEJS_TSCONFIG_PATH="+o.tsconfig)
	}
	return base
}

// locate resolves an SDK script (e.g. `@pulumi/pulumi/cmd/run`) the way the program would, from dir.
func locate(ctx context.Context, node, dir, module string) (string, error) {
	script := fmt.Sprintf("try { console.log(require.resolve(%q)) } catch (e) { console.error(e.code === 'MODULE_NOT_FOUND' ? %q : e.message); process.exit(1) }",
		module, "Cannot find "+module+" from "+dir+": is @pulumi/pulumi installed there? Run `pulumi install` or `npm install`.")
	cmd := exec.CommandContext(ctx, node, "-e", script)
	cmd.Dir = dir
	out, err := cmd.Output()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return "", errors.New(strings.TrimSpace(string(exit.Stderr)))
	} else if err != nil {
		return "", fmt.Errorf("could not run %s: %w", node, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// nodeCommand is the start of the command line that runs an SDK script (e.g. `@pulumi/pulumi/cmd/run`)
// for the program: node, the runtime options' `nodeargs`, then the script as the program directory
// resolves it. It returns the options too: the script runs with their env.
func nodeCommand(ctx context.Context, info *pulumirpc.ProgramInfo, module string) (node string, args []string, opts options, err error) {
	if opts, err = parseOptions(info); err != nil {
		return "", nil, opts, err
	}
	if node, err = exec.LookPath("node"); err != nil {
		return "", nil, opts, fmt.Errorf("could not find node on PATH: %w", err)
	}
	script, err := locate(ctx, node, info.ProgramDirectory, module)
	if err != nil {
		return "", nil, opts, err
	}
	if args, err = shlex.Split(opts.nodeargs); err != nil {
		return "", nil, opts, fmt.Errorf("runtime option nodeargs: %w", err)
	}
	return node, append(args, script), opts, nil
}

// Run runs the program: Node on cmd/run, talking to the engine's resource monitor directly.
func (h *nodeHost) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	if req.AttachDebugger {
		return &pulumirpc.RunResponse{Error: "this Node.js language host cannot attach a debugger"}, nil
	}
	info := req.Info
	node, args, opts, err := nodeCommand(ctx, info, "@pulumi/pulumi/cmd/run")
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	flagArg := func(name, value string) {
		if value != "" {
			args = append(args, "--"+name, value)
		}
	}
	flagArg("monitor", req.MonitorAddress)
	flagArg("engine", h.engineAddress)
	flagArg("organization", req.Organization)
	flagArg("project", req.Project)
	flagArg("root-directory", info.RootDirectory)
	flagArg("stack", req.Stack)
	flagArg("pwd", info.ProgramDirectory)
	if req.DryRun {
		args = append(args, "--dry-run")
	}
	flagArg("parallel", strconv.Itoa(int(req.Parallel)))
	flagArg("tracing", h.tracing)
	// The engine names the entry point relative to the program directory ("." for package.json's main).
	args = append(append(args, info.EntryPoint), req.Args...)

	config, err := json.Marshal(req.Config)
	if req.Config == nil {
		config = []byte("{}") // the SDK reads an object, never null
	}
	if err != nil {
		return nil, err
	}
	secretKeys, err := json.Marshal(append([]string{}, req.ConfigSecretKeys...))
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, node, args...)
	cmd.Dir = req.Pwd
	cmd.Env = opts.env(append(os.Environ(), "PULUMI_CONFIG="+string(config), "PULUMI_CONFIG_SECRET_KEYS="+string(secretKeys)))
	// Node may switch its stdio to non-blocking mode: it gets pipes, never this process's own files.
	cmd.Stdout, cmd.Stderr = struct{ io.Writer }{os.Stdout}, struct{ io.Writer }{os.Stderr}
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 5 * time.Second
	err = cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return &pulumirpc.RunResponse{}, nil
	case errors.As(err, &exit) && exit.ExitCode() == exitLoggedError:
		// The SDK already showed the error.
		return &pulumirpc.RunResponse{Bail: true}, nil
	case errors.As(err, &exit):
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("Program exited with non-zero exit code: %d", exit.ExitCode())}, nil
	default:
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("could not run the Node.js program: %v", err)}, nil
	}
}
