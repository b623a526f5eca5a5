#!/usr/bin/env node
// The executable users run (`git kizu ...` finds it on PATH). Everything happens in the built
// entry, dist/main.js (src/main.ts); `npm run build` makes it.
const { main } = await import('../dist/main.js');
await main(process.argv);
