// The attack review's findings (issue 17), each as the exploit that worked
// against the code before the fix: a hostile page on an allowed site A
// (127.0.0.1) next to a site D the policy denies (localhost), or a hostile
// program. Every test here succeeds as an attack on the old code and fails
// as one now. docs/policy.md "Threat model" says what is defended and why.
//
// The socket-directory attack (another local user plants a fake host) needs
// a second uid: it is a host/shim test, tests/host/socket_trust_test.cpp.

import { describe } from 'node:test';

// Site A allowed, site D denied, as the review tested it.
export const DENY_D = { rules: [{ sites: ['localhost'], deny: ['all'] }] };

// ==== 1. screenshot and reads return a denied page ==========================

describe('attack: capture', () => {});

// ---- end of section 1 -------------------------------------------------------


// ==== 2. download_file follows redirects into denied sites ==================

describe('attack: download redirects', () => {});

// ---- end of section 2 -------------------------------------------------------


// ==== 4. a page aims trusted typing and clicks; form tools' names ==========

describe('attack: page-aimed input', () => {});

// ---- end of section 4 -------------------------------------------------------


// ==== medium: page text, untrusted marks, console forgery, secrets ==========

describe('attack: page text and console', () => {});

// ---- end of section medium (pages) ------------------------------------------


// ==== medium: loopback aliases, the audit log, list_changed flood ===========

describe('attack: policy sites, audit, notifications', () => {});

// ---- end of section medium (host) -------------------------------------------
