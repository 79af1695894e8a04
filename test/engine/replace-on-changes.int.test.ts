import { describe } from "vitest";
import { useServer, useStack } from "../support/engine-suite";
import { itHonoursReplaceOnChanges } from "./replace-on-changes";

describe("replaceOnChanges on a dynamic resource, installed from the packed package", () => {
  const s = useServer();
  const { stack } = useStack({ program: "test/engine/programs/replace-on-changes", server: s });

  itHonoursReplaceOnChanges(async () => ({ stack, s }));
});
