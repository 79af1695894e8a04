// Package genfiles writes what a code generator made, for the SDK generators of this folder
// (tools/uptime-sdkgen and tools/pulumi-language-java/uptime-sdkgen-java).
package genfiles

import (
	"os"
	"path/filepath"
)

// Write replaces the folder dir by the generated files, each at its path relative to dir.
func Write(dir string, files map[string][]byte) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	for name, data := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
