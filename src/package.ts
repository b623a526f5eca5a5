/**
 * Where git-kizu is installed and which version it is. The build (esbuild, package.json
 * "build") writes every module into one flat folder, dist/, so the package root is the
 * folder above whichever built file this code ends up in; the version is inlined from
 * package.json at build time.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pkg from '../package.json' with { type: 'json' };

/** Absolute path of the installed package (the folder holding package.json, bin/, templates/). */
export const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The package version, as in package.json. */
export const VERSION: string = pkg.version;

/** Absolute path of the executable users run (bin/git-kizu.js). */
export const BIN_PATH = path.join(PACKAGE_ROOT, 'bin', 'git-kizu.js');
