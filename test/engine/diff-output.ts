/**
 * Reads `pulumi preview --diff` output: which top-level properties a planned update or replace
 * of one resource lists, as a user reads them.
 */

const HEADER = /^\s*[-+~]*\s*[\w:/.-]+: \(([\w-]+)\)\s*$/;
const PROPERTY = /^(\s*)[-+~]{1,2} ?([A-Za-z_]\w*)\s*:/;

/** The top-level properties listed under the update or replace of the resource `name`. */
export function diffedProperties(stdout: string, name: string): string[] {
  const found = new Set<string>();
  let block: string[] = [];
  const flush = () => {
    const [header, ...lines] = block;
    block = [];
    const op = header ? HEADER.exec(header)?.[1] : undefined;
    if (!op || !["update", "replace"].includes(op) || !lines.some((l) => l.includes(`::${name}]`))) return;
    const props = lines.map((l) => PROPERTY.exec(l)).filter((m): m is RegExpExecArray => m !== null);
    const top = Math.min(...props.map((m) => (m[1] as string).length));
    for (const m of props) if ((m[1] as string).length === top) found.add(m[2] as string);
  };
  for (const line of stdout.split("\n")) {
    // A resource header, the stack's outputs after its children ("--outputs:--") or a section of
    // the summary ("Outputs:", "Resources:") ends a block.
    if (HEADER.test(line) || /^\S/.test(line) || line.includes("--outputs:--")) flush();
    block.push(line);
  }
  flush();
  return [...found].sort();
}
