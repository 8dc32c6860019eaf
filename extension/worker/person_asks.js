// The person's asks (host -> extension `person.ask`, docs/protocol.md "The
// person's surface"), as the worker keeps them: the params read once into a
// well-formed ask, the choices each kind allows, what a window closed without
// a button means, and the queue the one surface window shows, oldest first.
// Pure: no chrome.* here (person_surface.js owns the window).

import { cut } from './text_cut.js';

// The host's texts are ours, the message is the model's: each is shown cut.
const MAX_MESSAGE_CHARS = 2000;
const MAX_NAME_CHARS = 200;

export const ASK_KINDS = Object.freeze(['grant', 'handoff']);
// The buttons' choices, in the order the surface shows them.
export const CHOICES = Object.freeze({
  grant: Object.freeze(['once', 'always', 'deny']),
  handoff: Object.freeze(['done', 'cannot']),
});
// What a window the person closed without a button answers.
export const REFUSAL = Object.freeze({ grant: 'deny', handoff: 'cannot' });

// A host name is at most 253 characters, with a port 260: never cut.
const MAX_SITE_CHARS = 260;

const text = (v, max) => (typeof v === 'string' ? cut(v, max) : '');

// person.ask params -> {askId, kind, client, tabId, timeoutMs, site, access,
// message}, or null when it cannot be shown (no integer askId, unknown kind,
// a grant without a site).
export function normaliseAsk(params) {
  const p = params && typeof params === 'object' ? params : {};
  if (!Number.isSafeInteger(p.askId) || !ASK_KINDS.includes(p.kind)) return null;
  const ask = {
    askId: p.askId,
    kind: p.kind,
    client: text(p.client, MAX_NAME_CHARS),
    tabId: Number.isInteger(p.tabId) ? p.tabId : null,
    timeoutMs: Number.isFinite(p.timeoutMs) && p.timeoutMs > 0 ? p.timeoutMs : null,
    site: text(p.site, MAX_SITE_CHARS), // whole: a cut host could hide its real domain
    access: text(p.access, MAX_NAME_CHARS),
    message: text(p.message, MAX_MESSAGE_CHARS),
  };
  if (ask.kind === 'grant' && !ask.site) return null;
  return ask;
}

export const isChoice = (ask, choice) => CHOICES[ask.kind].includes(choice);

// The asks waiting for the person, oldest first; the surface shows the head.
export class AskQueue {
  #asks = [];

  get size() {
    return this.#asks.length;
  }

  head() {
    return this.#asks[0] ?? null;
  }

  get(askId) {
    return this.#asks.find((a) => a.askId === askId) ?? null;
  }

  // Adds an ask (a repeated askId replaces the older one in place);
  // true when the head changed.
  add(ask) {
    const at = this.#asks.findIndex((a) => a.askId === ask.askId);
    if (at >= 0) {
      this.#asks[at] = ask;
      return at === 0;
    }
    this.#asks.push(ask);
    return this.#asks.length === 1;
  }

  // Takes an ask off; true when it was the head.
  remove(askId) {
    const at = this.#asks.findIndex((a) => a.askId === askId);
    if (at >= 0) this.#asks.splice(at, 1);
    return at === 0;
  }

  // Every ask, taken off.
  clear() {
    return this.#asks.splice(0);
  }
}
