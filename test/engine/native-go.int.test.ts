import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { describeNativeProgram } from "./native-program";

// examples/native-go, built by the Go language host with its SDK `replace`d by the one built here.
describeNativeProgram(
  "a Go program through the native plugin and its generated Go SDK",
  { program: "examples/native-go", go: true, hookToken: "go-hook-token-4c7b90", headerToken: "go-header-token-d25e18" },
  (ctx) => {
    it("a property of the wrong type fails the preview at compile time, at its line", async () => {
      const workDir = ctx.native.program("examples/native-go");
      const main = join(workDir, "main.go");
      const source = readFileSync(main, "utf8").replace(
        /IntervalSec:(\s*)pulumi\.Int\(interval\)/,
        'IntervalSec:$1pulumi.String("60")',
      );
      writeFileSync(main, source);
      const line = source.split("\n").findIndex((l) => l.includes('pulumi.String("60")')) + 1;
      const stack = await ctx.native.engine.stack(workDir, "wrong-type");
      try {
        // Go's message gives the property's line and the type it wants, not the property's name.
        const compileError = new RegExp(
          `did not compile[\\s\\S]*main\\.go:${line}:\\d+: cannot use pulumi\\.String\\("60"\\)[\\s\\S]*pulumi\\.IntInput`,
        );
        expect(line).toBeGreaterThan(0);
        await expect(stack.preview()).rejects.toThrow(compileError);
      } finally {
        await stack.workspace.removeStack("wrong-type", { force: true }).catch(() => undefined);
      }
    });
  },
);
