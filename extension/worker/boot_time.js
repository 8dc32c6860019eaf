// When the worker's code began to run (epoch ms): the first module main.js
// imports, so it runs before every other one. Fetching and compiling
// background.js (the bundle of them all) came before it (performance.timeOrigin is the
// worker's start). For the first-page timeline (hello's timing).
export const evaluatedAt = Date.now();
