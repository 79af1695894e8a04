/**
 * The oldest Node.js both packages run on. undici 8 (the HTTP client of both) and `node:sqlite`
 * fail on an older one with an error that names neither the version nor the fix (Node.js 20:
 * "Cannot read properties of undefined (reading 'bind')" inside undici), so each entry point
 * checks first. Kept with `engines` in both package.json files and the docs (a test compares them).
 */
export const NODE_REQUIRED = "22.19.0";

/**
 * Why this Node.js cannot run `program` (`version` as `process.versions.node`), or undefined.
 * The message names the program, the minimum, and the Node.js that was found.
 */
export function nodeTooOld(program: string, version: string = process.versions.node): string | undefined {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  const [needMajor = 0, needMinor = 0] = NODE_REQUIRED.split(".").map(Number);
  if (major > needMajor || (major === needMajor && minor >= needMinor)) return undefined;
  return `${program} needs Node.js ${NODE_REQUIRED} or later; this is Node.js ${version} (${process.execPath}).`;
}
