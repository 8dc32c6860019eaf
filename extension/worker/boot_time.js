// When the worker's modules began to run (epoch ms): the first module
// background.js imports, so it runs before every other one. Fetching and
// compiling the modules came before it (performance.timeOrigin is the
// worker's start). For the first-page timeline (hello's timing).
export const evaluatedAt = Date.now();
