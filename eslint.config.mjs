// Lint rules for the whole repository: ESLint's and typescript-eslint's recommended sets.
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/", "**/dist/", "node_modules/", "**/node_modules/", "coverage/", "test/__snapshots__/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" }],
      // Dynamic providers must load their implementation with require() inside each method.
      "@typescript-eslint/no-require-imports": "off",
    },
  },
  {
    // The store is asynchronous: a call that is not awaited would run outside its request or transaction.
    files: ["server/**/*.ts"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      // A promise returned from a try block must be awaited there, or its finally (a store closed) runs first.
      "@typescript-eslint/return-await": ["error", "error-handling-correctness-only"],
    },
  },
);
