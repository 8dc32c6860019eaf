// The page agent's files and the small function that calls it in a frame
// (pure: tests/js load it without a browser). agent_runner.js uses them.

// In injection order: each file uses the ones before it.
export const AGENT_FILES = ['text', 'dom', 'registry', 'roles', 'names', 'states', 'geometry', 'pointer', 'frames', 'fold', 'snapshot', 'scroll', 'fields', 'read', 'effects_wait', 'text_changes', 'changes', 'files', 'dispatch']
  .map((name) => `page/agent/${name}.js`);

// This worker's agent: one id per service-worker start, so that a frame
// holding the agent of an earlier start (or of the extension before a reload
// or update) gets these files again.
export const AGENT_VERSION = `${Date.now().toString(36)}.${Math.random().toString(36).slice(2, 8)}`;

const MISSING = '__tabbridgeAgentMissing';

// Serialised into the page: must use nothing from this module's scope.
// installed: the files were just injected, so the agent there is this
// worker's version. Answers {read, value}: the op's value with the URL of the
// document it read (stack/reads.js: taken by this same script, once the op
// is done; an about:blank or srcdoc frame is its creator's origin's).
export function callAgent(op, args, version, installed) {
  const agent = globalThis.__tabbridgeAgent;
  if (installed && typeof agent?.run === 'function') agent.version = version;
  if (typeof agent?.run !== 'function' || agent.version !== version) return { __tabbridgeAgentMissing: true };
  const where = () => {
    const { protocol, origin, href } = location;
    return (protocol === 'about:' || protocol === 'blob:') && origin && origin !== 'null' ? `${origin}/` : href;
  };
  const out = agent.run(op, args);
  return out instanceof Promise ? out.then((value) => ({ read: where(), value })) : { read: where(), value: out };
}

export const isMissing = (result) => !!result?.[MISSING];

// callAgent's answer: the URL of the document read, and the op's value.
export const readUrlOf = (answer) => (typeof answer?.read === 'string' ? answer.read : '');
export const valueOf = (answer) => answer?.value;
