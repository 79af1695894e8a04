/** The text of api/monitor-types/index.ts for the descriptor files of `folder` (default: that folder). */
export function render(folder?: string): string;
