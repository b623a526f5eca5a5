// `node --import <this file>`: appends every module specifier the process resolves that names
// web-tree-sitter or a tree-sitter grammar to the file named by KIZU_TEST_LOAD_LOG, one per
// line, so a test can tell whether a command loaded the parser at all. Synchronous hooks in
// this thread (module.registerHooks, Node >= 22.15) where Node has them: Node 26 deprecates
// module.register (DEP0205) and prints a warning on stderr, which the tests compare.
import * as mod from 'node:module';

const log = process.env.KIZU_TEST_LOAD_LOG;
if (mod.registerHooks) {
  const { appendFileSync } = await import('node:fs');
  mod.registerHooks({
    resolve(specifier, context, next) {
      // ESM imports only, as module.register's hooks see (these hooks see require() too).
      const esm = !context.conditions || context.conditions.includes('import');
      if (log && esm && /tree-sitter/.test(specifier)) appendFileSync(log, `${specifier}\n`);
      return next(specifier, context);
    },
  });
} else {
  mod.register(new URL('./load-log-hooks.mjs', import.meta.url), { data: { log } });
}
