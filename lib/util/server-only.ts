// Where `import "server-only"` lands outside Next (tsx, node:test, Playwright, the esbuild-built API server) through
// tsconfig.json "paths": nothing to do there. Next resolves the real package (tsconfig.app.json has no such path), so a
// client bundle that reaches a marked module still fails to build.
export {};
