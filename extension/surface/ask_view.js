// What the surface says for an ask (worker/person_asks.js): the sentence,
// the model's message (a hand-off's; untrusted text, shown as text only), a
// note and the buttons with the choice each sends. Pure, so tests/js reads it.

import { CHOICES } from '../worker/person_asks.js';

const LABELS = Object.freeze({
  once: 'Allow once',
  always: 'Always',
  deny: 'Deny',
  done: 'Done',
  cannot: 'I can\'t',
});

// What each access lets the agent do, as the grant's sentence says it.
const WANTS = Object.freeze({
  read: (site) => `wants to read ${site}`,
  act: (site) => `wants to read and act on ${site}`,
  eval: (site) => `wants to run JavaScript on ${site}`,
  download: (site) => `wants to download from ${site}`,
});

const who = (ask) => ask.client || 'An agent';

export function grantSentence(ask) {
  const wants = WANTS[ask.access] ?? ((site) => `wants ${ask.access ? `"${ask.access}" access` : 'access'} to ${site}`);
  return `${who(ask)} ${wants(ask.site)}`;
}

const seconds = (ms) => `${Math.round(ms / 1000)} s`;

// {kind, heading, message (null: none), note, buttons: [{choice, label}]}
export function viewOf(ask) {
  const buttons = CHOICES[ask.kind].map((choice) => ({ choice, label: LABELS[choice] }));
  const waits = ask.timeoutMs ? ` It waits ${seconds(ask.timeoutMs)} at most.` : '';
  if (ask.kind === 'grant') {
    return {
      kind: 'grant',
      heading: grantSentence(ask),
      message: null,
      note: 'Allow once: for this agent\'s session. Always: a rule in your tabbridge policy file ' +
        `(\`tabbridge policy\` shows it; the popup revokes it).${waits}`,
      buttons,
    };
  }
  return {
    kind: 'handoff',
    // The site the tab is on, from the host: the model's words alone must not say where to log in.
    heading: `${who(ask)} hands the browser to you${ask.site ? ` — the tab on ${ask.site}` : ''}`,
    message: ask.message || '(no message)',
    note: `Do it in the tab that came forward, then click Done — or I can't.${waits}`,
    buttons,
  };
}
