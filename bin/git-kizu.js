#!/usr/bin/env node
// The executable users run (`git kizu ...` finds it on PATH). Everything happens in the built
// entry, dist/main.js (src/main.ts); `npm run build` makes it.
//
// Node >= 22.1 keeps V8's compiled code of the modules between runs (module.enableCompileCache;
// older Node has no such call and skips it). The cache lives beside the code it caches, in
// dist/.compile-cache (the first run makes it; `npm run build` removes it with dist; where the
// package's folder is not writable nothing is cached). Node accepts an entry only for the
// module source it was made from, checked by a CRC32 of that source: that keeps a stale entry
// out, not a forged one, so the cache must be no easier to write than the code itself, never
// in the repository, its git dir or a shared temporary folder that the agent under review
// could fill. NODE_DISABLE_COMPILE_CACHE=1 turns it off.
import module from 'node:module';
import { fileURLToPath } from 'node:url';
module.enableCompileCache?.(fileURLToPath(new URL('../dist/.compile-cache', import.meta.url)));
const { main } = await import('../dist/main.js');
await main(process.argv);
