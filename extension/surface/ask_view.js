// What the surface says for an ask (worker/person_asks.js). The heading is
// tabbridge's own: the site (whole, in punycode) and the access asked. The
// client's name is its own choice, so it is a separate, labelled line; the
// model's words (a hand-off's message) are shown as the agent's message,
// apart from anything tabbridge says. "Always" is a second step: a box that,
// ticked, shows its confirm button. Pure, so tests/js reads it.

import { CHOICES } from '../worker/person_asks.js';

const LABELS = Object.freeze({
  once: 'Allow once',
  always: 'Confirm: always allow',
  deny: 'Deny',
  done: 'Done',
  cannot: 'I can\'t',
});

// What each access lets the agent do, as the heading says it.
const ASKS = Object.freeze({
  read: (site) => `Let an agent read ${site}?`,
  act: (site) => `Let an agent read and act on ${site}?`,
  eval: (site) => `Let an agent run JavaScript on ${site}?`,
  download: (site) => `Let an agent download from ${site}?`,
});

// A host the host sent in Unicode is shown as the browser's address bar does not
// always: in punycode, so a look-alike (xn--pple-43d.com) cannot pass for the real one.
export function asciiSite(site) {
  if (!/[^\x20-\x7e]/.test(site)) return site;
  try {
    return new URL(`http://${site}`).host;
  } catch {
    return site;
  }
}

// The client's own name for itself, labelled as such ("" for none: the line is left out).
export const askerLine = (ask) => (ask.client ? `Asked by the MCP client that calls itself: ${ask.client}` : '');

export function grantHeading(ask) {
  const site = asciiSite(ask.site);
  return (ASKS[ask.access] ?? ((s) => `Let an agent have ${ask.access ? `"${ask.access}" access` : 'access'} to ${s}?`))(site);
}

const seconds = (ms) => `${Math.round(ms / 1000)} s`;

const HOW_TO_CLICK = 'Rest the pointer on a button a moment, then click (touch: press and hold; keys: Tab to it, wait, Enter).';

// {kind, heading, asker, message (null: none), note, buttons: [{choice, label}] (one step each),
//  always: null | {box, choice, label} (the box to tick, then its confirm button)}
export function viewOf(ask) {
  const waits = ask.timeoutMs ? ` It waits ${seconds(ask.timeoutMs)} at most.` : '';
  const asker = askerLine(ask);
  if (ask.kind === 'grant') {
    return {
      kind: 'grant',
      heading: grantHeading(ask),
      asker,
      message: null,
      note: `Allow once: for this agent's session. Always: a rule in your policy file (the popup revokes it). ` +
        `${HOW_TO_CLICK}${waits}`,
      buttons: CHOICES.grant.filter((c) => c !== 'always').map((choice) => ({ choice, label: LABELS[choice] })),
      always: { box: `Always allow ${asciiSite(ask.site)}, in every session`, choice: 'always', label: LABELS.always },
    };
  }
  return {
    kind: 'handoff',
    // The site the tab is on, from the host: the model's words alone must not say where to log in.
    heading: ask.site ? `An agent hands you the tab on ${asciiSite(ask.site)}` : 'An agent hands the browser to you',
    asker,
    message: ask.message || '(no message)',
    note: `Do it in the tab that came forward, then click Done — or I can't. ${HOW_TO_CLICK}${waits}`,
    buttons: CHOICES.handoff.map((choice) => ({ choice, label: LABELS[choice] })),
    always: null,
  };
}
