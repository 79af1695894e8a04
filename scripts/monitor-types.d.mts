/** The monitor types: the names of the descriptor files of `folder` (default: api/monitor-types/), sorted. */
export function typesOf(folder?: string): string[];
/** The text of api/monitor-types/index.ts for the descriptor files of `folder` (default: that folder). */
export function render(folder?: string): string;
/**
 * The text of server/checker/monitor-types/index.ts for the types of the descriptor folder `folder`,
 * whose checker modules are in `checkerFolder` (defaults: the project's two folders).
 */
export function renderCheckers(folder?: string, checkerFolder?: string): string;
