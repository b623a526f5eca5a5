// `node --import <this file>`: appends every module specifier the process resolves that names
// web-tree-sitter or a tree-sitter grammar to the file named by KIZU_TEST_LOAD_LOG, one per
// line, so a test can tell whether a command loaded the parser at all.
import { register } from 'node:module';

register(new URL('./load-log-hooks.mjs', import.meta.url), { data: { log: process.env.KIZU_TEST_LOAD_LOG } });
