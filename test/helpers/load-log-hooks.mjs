// Module resolution hooks for load-log.mjs (they run on the loader thread).
import { appendFileSync } from 'node:fs';

let log = null;

/** Receives the log file from register(). */
export function initialize(data) {
  log = data?.log ?? null;
}

/** Logs specifiers that name the tree-sitter runtime, then resolves as usual. */
export async function resolve(specifier, context, next) {
  if (log && /tree-sitter/.test(specifier)) appendFileSync(log, `${specifier}\n`);
  return next(specifier, context);
}
