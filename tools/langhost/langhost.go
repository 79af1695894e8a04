// Package langhost starts the language hosts of this folder (tools/pulumi-language-go and
// tools/pulumi-language-nodejs) the way the engine expects a language host to start.
package langhost

import (
	"fmt"
	"os"

	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
)

// Serve serves host until the engine stops it (or stop is closed; nil: never), printing its port
// on the first line of stdout, where the engine reads it. On an error it exits the process,
// naming the host as `name` (for example "Go" for "the Go language host").
func Serve(name string, host pulumirpc.LanguageRuntimeServer, stop chan bool) {
	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Cancel: stop,
		Init: func(srv *grpc.Server) error {
			pulumirpc.RegisterLanguageRuntimeServer(srv, host)
			return nil
		},
		Options: rpcutil.OpenTracingServerInterceptorOptions(nil),
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "error: could not start the %s language host: %v\n", name, err)
		os.Exit(1)
	}
	fmt.Printf("%d\n", handle.Port)
	if err := <-handle.Done; err != nil {
		fmt.Fprintf(os.Stderr, "error: %v\n", err)
		os.Exit(1)
	}
}
