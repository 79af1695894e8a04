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
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" },
      ],
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
  {
    // Layers: a route handler calls a service, never a repository (services/index.ts).
    files: ["server/routes/**/*.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/store", "**/store/*"],
              allowTypeImports: true,
              message: "Routes reach the store only through a service (server/services/).",
            },
          ],
        },
      ],
      "no-restricted-syntax": [
        "error",
        {
          selector: "MemberExpression[property.name='store']",
          message: "Routes reach the store only through a service (server/services/).",
        },
        {
          selector: "VariableDeclarator > ObjectPattern > Property[key.name='store']",
          message: "Routes reach the store only through a service (server/services/).",
        },
      ],
    },
  },
);
