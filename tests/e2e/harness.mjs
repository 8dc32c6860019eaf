// Shared harness of the tabbridge end-to-end suite.
//
// Real parts only: the shim (bin/tabbridge) driven by the official MCP SDK
// client over stdio, headless Chromium launched by the shim with our
// extension, the host (bin/tabbridge-host) spawned by Chromium, and fixture
// pages served on 127.0.0.1. Nothing here sleeps as synchronisation: we wait
// for events or poll with a deadline (waitFor), and never assert on wall time.
//
// This module only re-exports lib/, one concern per module; test files (and
// bench/soak.mjs) import from here.

export * from './lib/config.mjs'; // paths, browser flags, deadlines, core tool sets, requireBuild
export * from './lib/wait.mjs'; // waitFor
export * from './lib/asserts.mjs'; // tool sets, structuredContent, list_changed counts, errorText
export * from './lib/fixture_server.mjs'; // startFixtureServer, downloadBytes, LOGIN, closedPort
export * from './lib/processes.mjs'; // /proc: isAlive, findProcsByMarkers, killAndReap
export * from './lib/devtools.mjs'; // DevTools endpoint, CdpConnection, cdpEvaluate
export * from './lib/session.mjs'; // Session, McpError, launchBrowser, waitForTabTitle
export * from './lib/harness.mjs'; // Harness, useHarness, stepper
