// The one cleaner of page text on its way to a model (issue 29). A page can
// hide text from the user who reads the transcript while the model reads it:
// Unicode tag characters spell ASCII invisibly, bidi overrides turn text
// around, line and paragraph separators and C0/C1 controls (a terminal's
// escape) break what the user sees, zero-width characters and runs of
// variation selectors carry text that shows nothing. Every answer the host
// sends a session passes through CleanStrings (host/session.cpp), so a new
// tool cannot forget it; the page's own tools' names and descriptions use the
// one-line form (host/own_tool_names.h CleanText).
//
// What goes: tag characters (U+E0000–E007F); bidi embeddings, overrides,
// isolates and marks (U+202A–202E, U+2066–2069, U+200E/U+200F, U+061C);
// zero-width characters (U+200B–200D, U+2060–2064, U+FEFF) and other
// invisible format characters (soft hyphen, Hangul fillers, …); variation
// selectors (U+FE00–FE0F, U+E0100–E01EF); C0 and C1 controls but tab and
// newline. Kept, one at a time and never as a run: the zero-width joiner
// between two pictographs of an emoji sequence (👩‍🚀) and one emoji or text
// selector (U+FE0F, U+FE0E) right after a symbol that takes it (❤️): there
// they hide nothing, and an enum of emoji must reach the model as the page
// wrote it. U+2028/U+2029, CR, CRLF, VT and FF become a newline. Invalid
// UTF-8 becomes U+FFFD.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "common/jsonrpc.h"

namespace tb::page_text {

enum class Lines {
  kKeep,  // a page's text, a log, a result: newlines and tabs stay
  kJoin,  // a name or a description: one line, every run of whitespace one space, none at the ends
};

// `text` cleaned, or nullopt when nothing in it needs cleaning (one linear
// pass; text that needs nothing is never copied).
std::optional<std::string> Cleaned(std::string_view text, Lines lines = Lines::kKeep);

// The same, always as a string.
std::string Clean(std::string_view text, Lines lines = Lines::kKeep);

// `text` cut to at most `max_bytes` on a whole UTF-8 sequence, "…" included.
std::string Cut(std::string text, std::size_t max_bytes);

// A name something chose for itself (the MCP client's, issue 44), as the
// person sees it on the surface, in a tab group's title and in the popup: one
// line, nothing invisible or direction-changing, at most `max_bytes`.
std::string Name(std::string_view text, std::size_t max_bytes);

// Cleans every string of `value` in place (kKeep), object keys included,
// without recursion (a page's result may nest deep). Left alone: the base64
// `data` of an image or audio content block and the `blob` of a resource
// (base64 has nothing to clean; they are the largest strings of a result).
void CleanStrings(Json& value);

}  // namespace tb::page_text
