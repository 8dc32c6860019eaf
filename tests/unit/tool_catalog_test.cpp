#include "common/tool_catalog.h"

#include "common/protocol.h"

#include <functional>
#include <set>

#include <gtest/gtest.h>

namespace tb {
namespace {

const Json& Tool(std::string_view name) {
  const Json* tool = tools::Find(name);
  EXPECT_NE(tool, nullptr) << name;
  return *tool;
}

TEST(ToolCatalog, EveryToolHasAnObjectSchema) {
  for (const auto& name : tools::ReservedNames()) EXPECT_EQ(Tool(name)["inputSchema"]["type"], "object") << name;
}

// readOnlyHint where true (Claude Code runs such calls of a turn at once),
// destructiveHint false where a tool only adds (a tab, a file, the mouse
// over an element); a tool that may destroy keeps MCP's default, unlisted.
TEST(ToolCatalog, HintsSayWhatEachToolDoes) {
  EXPECT_EQ(Tool(tools::kListTabs)["annotations"], Json({{"readOnlyHint", true}}));
  EXPECT_EQ(Tool("snapshot")["annotations"], Json({{"readOnlyHint", true}}));
  EXPECT_EQ(Tool(tools::kOpenTab)["annotations"], Json({{"destructiveHint", false}}));
  EXPECT_EQ(Tool("hover")["annotations"], Json({{"destructiveHint", false}}));
  EXPECT_FALSE(Tool(tools::kCloseTab).contains("annotations"));
  EXPECT_FALSE(Tool("click").contains("annotations"));
  EXPECT_FALSE(Tool("evaluate").contains("annotations"));
  EXPECT_FALSE(Tool("navigate").contains("annotations"));
}

// Every tool as listed has a search hint of our words (Claude Code's
// ToolSearch matches it); pinned only when a surface asks.
TEST(ToolCatalog, EveryListedToolHasASearchHint) {
  for (const auto& name : tools::ReservedNames()) {
    const Json listed = tools::Listed(Tool(name));
    EXPECT_TRUE(listed["_meta"][mcp::kMetaSearchHint].is_string()) << name;
    EXPECT_FALSE(listed["_meta"].contains(mcp::kMetaAlwaysLoad)) << name;
  }
  EXPECT_EQ(tools::Pinned(tools::Listed(Tool("click")))["_meta"][mcp::kMetaAlwaysLoad], true);
}

// Bounds and defaults are checked, not listed.
TEST(ToolCatalog, ListedLeavesBoundsAndDefaultsToTheCheck) {
  const Json snapshot = *tools::Find("snapshot");
  EXPECT_EQ(snapshot["inputSchema"]["properties"]["maxChars"]["minimum"], 500);
  EXPECT_EQ(tools::Listed(snapshot)["inputSchema"]["properties"]["maxChars"], Json({{"type", "integer"}}));
  auto ok = tools::CheckArguments(snapshot, {{"maxChars", 10}});
  ASSERT_FALSE(ok);
  EXPECT_NE(ok.error().find("at least 500"), std::string::npos) << ok.error();
}

// The listed schemas are open; the check is closed all the same.
TEST(ToolCatalog, ListedSchemasLeaveAdditionalPropertiesOut) {
  for (const auto& name : tools::ReservedNames()) {
    EXPECT_FALSE(Tool(name)["inputSchema"].contains("additionalProperties")) << name;
  }
}

TEST(CheckArguments, TakesAPageSchemaWithoutAdditionalPropertiesAtItsWord) {
  const Json page_tool = {{"name", "t"},
                          {"inputSchema", {{"type", "object"}, {"properties", {{"a", {{"type", "string"}}}}}}}};
  EXPECT_TRUE(tools::CheckArguments(page_tool, {{"a", "x"}, {"b", 1}}, tools::Extra::kPerSchema));
  EXPECT_FALSE(tools::CheckArguments(page_tool, {{"a", "x"}, {"b", 1}}));
}

TEST(ToolCatalog, UnknownNamesAreNotFound) { EXPECT_EQ(tools::Find("click_everything"), nullptr); }

TEST(CheckArguments, AcceptsValidArguments) {
  EXPECT_TRUE(tools::CheckArguments(Tool(tools::kOpenTab), {{"url", "https://a.test/"}, {"focus", false}}));
}

TEST(CheckArguments, NamesAWrongType) {
  auto ok = tools::CheckArguments(Tool(tools::kOpenTab), {{"url", 5}});
  ASSERT_FALSE(ok);
  EXPECT_EQ(ok.error(), R"(url must be a string, not an integer (5))");
}

// focus_tab's tabId is a tab id or "active" (the person's tab): a wrong value
// or type is named as precisely as for a single type.
TEST(CheckArguments, NamesWhatAUnionOfATypeAndAWordTakes) {
  const Json& focus = Tool(tools::kFocusTab);
  EXPECT_TRUE(tools::CheckArguments(focus, {{"tabId", 7}}));
  EXPECT_TRUE(tools::CheckArguments(focus, {{"tabId", "active"}, {"show", true}}));
  auto word = tools::CheckArguments(focus, {{"tabId", "abc"}});
  ASSERT_FALSE(word);
  EXPECT_EQ(word.error(), R"(tabId must be an integer or "active", not a string ("abc"))");
  auto type = tools::CheckArguments(focus, {{"tabId", true}});
  ASSERT_FALSE(type);
  EXPECT_EQ(type.error(), R"(tabId must be an integer or "active", not a boolean (true))");
  auto show = tools::CheckArguments(focus, {{"tabId", 7}, {"show", "yes"}});
  ASSERT_FALSE(show);
  EXPECT_EQ(show.error(), R"(show must be a boolean, not a string ("yes"))");
}

TEST(CheckArguments, NamesAMissingRequiredArgument) {
  auto ok = tools::CheckArguments(Tool(tools::kOpenTab), Json::object());
  ASSERT_FALSE(ok);
  EXPECT_EQ(ok.error(), "missing required argument url");
}

TEST(CheckArguments, NamesAnUnknownArgumentAndListsTheKnownOnes) {
  auto ok = tools::CheckArguments(Tool(tools::kOpenTab), {{"url", "https://a.test/"}, {"tab", 1}});
  ASSERT_FALSE(ok);
  EXPECT_EQ(ok.error(), "unknown argument tab (expected: focus, url)");
}

TEST(CheckArguments, CountsTheItemsOfAnArray) {
  const Json& upload = Tool(tools::kUploadFile);
  EXPECT_TRUE(tools::CheckArguments(upload, {{"selector", "#f"}, {"paths", {"a"}}}));
  auto none = tools::CheckArguments(upload, {{"selector", "#f"}, {"paths", Json::array()}});
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error(), "paths must have at least 1 item");
  auto many = tools::CheckArguments(
      upload, {{"selector", "#f"}, {"paths", Json(std::vector<std::string>(kMaxUploadFiles + 1, "a"))}});
  ASSERT_FALSE(many);
  EXPECT_EQ(many.error(), "paths must have at most " + std::to_string(kMaxUploadFiles) + " items");
}

TEST(CheckArguments, TakesAWholeFloatAsAnInteger) {
  EXPECT_TRUE(tools::CheckArguments(Tool(tools::kFocusTab), {{"tabId", 3.0}}));
  EXPECT_FALSE(tools::CheckArguments(Tool(tools::kFocusTab), {{"tabId", 3.5}}));
}

TEST(CheckArguments, RefusesNonObjectArguments) {
  EXPECT_FALSE(tools::CheckArguments(Tool(tools::kListTabs), Json::array()));
}

TEST(ToolResult, CarriesStructuredContentAndTheSameJsonAsText) {
  const Json result = tools::Result({{"closed", true}});
  EXPECT_EQ(result["structuredContent"]["closed"], true);
  EXPECT_EQ(Json::parse(result["content"][0]["text"].get<std::string>()), result["structuredContent"]);
  EXPECT_FALSE(result.contains("isError"));
  EXPECT_TRUE(tools::Result({{"connected", false}}, true)["isError"]);
}

}  // namespace
}  // namespace tb

namespace tb {
namespace {

// The generic focused list: tab tools, the page tools. The page's own tools
// come on top, budgeted per page (kMaxListedOwnToolBytes;
// own_tool_names_test.cpp), and with them list_webmcp_tools and
// call_webmcp_tool where some are left out.
std::size_t FocusedTabListBytes(const std::vector<std::string>& caps) {
  Json list = Json::array();
  for (auto name : {tools::kListTabs, tools::kOpenTab, tools::kFocusTab, tools::kCloseTab, tools::kRunSteps}) {
    list.push_back(tools::Listed(*tools::Find(name)));
  }
  for (const auto& tool : tools::PageTools(caps)) list.push_back(tools::Listed(tool));
  // What the model is shown: name, description, schema. Annotations and _meta
  // (hints, a search hint, a pin) steer the client; the API has no field for them.
  for (auto& tool : list) {
    tool.erase("_meta");
    tool.erase("annotations");
  }
  return rpc::Dump(Json{{"tools", list}}).size();
}

// Every byte of tools/list the model is shown is context it pays for on every turn.
TEST(ToolCatalog, FocusedTabListWithDefaultCapsStaysUnder6000Bytes) { EXPECT_LT(FocusedTabListBytes({}), 6000u); }

// The list every session starts with (connect_browser alone), as the result of tools/list.
TEST(ToolCatalog, TheListAtStartIsAtMost600Bytes) {
  EXPECT_LE(rpc::Dump(Json{{"tools", {*tools::Find(tools::kConnectBrowser)}}}).size(), 600u);
}

TEST(ToolCatalog, CapsAddTheirToolsAndHtmlMode) {
  const Json plain = tools::PageTools({});
  const Json all = tools::PageTools({"eval", "download", "html"});
  auto names = [](const Json& list) {
    std::vector<std::string> out;
    for (const auto& t : list) out.push_back(t["name"]);
    return out;
  };
  EXPECT_EQ(std::ranges::count(names(plain), "evaluate"), 0);
  EXPECT_EQ(std::ranges::count(names(all), "evaluate"), 1);
  EXPECT_EQ(std::ranges::count(names(all), "download_file"), 1);
  for (const auto& t : all) {
    if (t["name"] == "read_page") {
      EXPECT_NE(rpc::Dump(t).find("\"html\""), std::string::npos);
    }
  }
}

TEST(CheckArguments, AcceptsEitherTypeOfAUnion) {
  const Json& fill = *tools::Find("fill_form");
  EXPECT_TRUE(
      tools::CheckArguments(fill, {{"fields", {{{"ref", "e1"}, {"value", true}}, {{"ref", "e2"}, {"value", "x"}}}}}));
  auto bad = tools::CheckArguments(fill, {{"fields", {{{"ref", "e1"}, {"value", 3}}}}});
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error(), "fields[0].value must be a string or a boolean, not an integer (3)");
}

// The policy table sits beside the catalog: a new tool without a capability
// would slip past every policy check, so each must have one or be one of the
// three that touch no page.
TEST(ToolCatalog, EveryToolHasAPolicyCapabilityOrTouchesNoPage) {
  // run_steps: each step is checked as its own call (host/run_steps.cpp).
  const std::set<std::string> no_page = {"connect_browser", "list_tabs", "focus_tab", "ask_person", "run_steps"};
  for (const auto& name : tools::ReservedNames()) {
    EXPECT_EQ(tools::CapabilityOf(name).has_value(), !no_page.contains(name)) << name;
  }
}

// The catalog walk of issue 42: every tool says what the policy decides a
// call of it on. The call gate names no tool; a tool added later without a
// declaration fails here (and the gate refuses to run it).
TEST(ToolCatalog, EveryToolDeclaresItsPolicyTargets) {
  for (const auto& name : tools::ReservedNames()) {
    const tools::ToolPolicy* declared = tools::PolicyOf(name);
    ASSERT_NE(declared, nullptr) << name;
    EXPECT_TRUE(declared->targets.Declared()) << name << " declares no policy targets";
  }
}

// A tool with a capability is decided on a page: the focused tab, a tab it
// names, or where it goes; "touches no page" is for the tools without one.
TEST(ToolCatalog, EveryToolWithACapabilityHasATargetAndEveryOtherSaysWhyNone) {
  for (const auto& name : tools::ReservedNames()) {
    const tools::ToolPolicy& declared = *tools::PolicyOf(name);
    const auto& targets = declared.targets;
    const bool targeted = targets.focused_tab || !targets.tab_arg.empty() || !targets.url_arg.empty();
    EXPECT_EQ(targeted, declared.cap.has_value()) << name;
    EXPECT_EQ(targets.untargeted.empty(), declared.cap.has_value()) << name;
  }
}

// Every property of `schema`, at every depth, with its name.
void EachProperty(const Json& schema, const std::function<void(const std::string&, const Json&)>& visit) {
  if (!schema.is_object()) return;
  if (const auto properties = schema.find("properties"); properties != schema.end() && properties->is_object()) {
    for (const auto& [name, property] : properties->items()) {
      visit(name, property);
      EachProperty(property, visit);
    }
  }
  if (const auto items = schema.find("items"); items != schema.end()) EachProperty(*items, visit);
}

// A URL argument is where a call may go: a tool that takes one checks it
// (url_arg) or says why the URL is not a target (url_arg_not_target) — the
// fail-open of issue 42, where a new tool's URL went unchecked.
TEST(ToolCatalog, EveryUrlArgumentIsADeclaredTargetOrSaysWhyNot) {
  int urls = 0;
  for (const auto& name : tools::ReservedNames()) {
    const auto& targets = tools::PolicyOf(name)->targets;
    EachProperty(Tool(name)["inputSchema"], [&](const std::string& property, const Json& schema) {
      const bool url_like = property == "url" || property == "href" || schema.value("format", "") == "uri";
      if (!url_like) return;
      ++urls;
      EXPECT_TRUE(targets.url_arg == property || !targets.url_arg_not_target.empty())
          << name << "." << property << " is a URL the policy does not check";
    });
  }
  EXPECT_EQ(urls, 3);  // open_tab, navigate, download_file: the walk sees them
}

// The audit line quotes an error's words only for tools that declare it:
// their errors can quote nothing typed or read (docs/audit.md).
TEST(ToolCatalog, OnlyToolsThatDeclareItLogTheirErrorText) {
  std::set<std::string> logs_errors;
  for (const auto& name : tools::ReservedNames()) {
    if (tools::PolicyOf(name)->audit.error_text) logs_errors.insert(name);
  }
  EXPECT_EQ(logs_errors, (std::set<std::string>{"open_tab", "close_tab", "navigate", "download_file"}));
  EXPECT_FALSE(tools::OwnToolPolicy().audit.error_text);
}

TEST(ToolCatalog, ThePagesOwnToolsActOnTheFocusedTab) {
  EXPECT_EQ(tools::OwnToolPolicy().cap, policy::Cap::kAct);
  EXPECT_TRUE(tools::OwnToolPolicy().targets.focused_tab);
  EXPECT_EQ(tools::PolicyOf("webmcp_x_page0_add"), nullptr);
}

TEST(ToolCatalog, ReadToolsNeedReadAndActionsNeedAct) {
  using policy::Cap;
  EXPECT_EQ(tools::CapabilityOf("snapshot"), Cap::kRead);
  EXPECT_EQ(tools::CapabilityOf("click"), Cap::kAct);
  EXPECT_EQ(tools::CapabilityOf("navigate"), Cap::kNavigate);
  EXPECT_EQ(tools::CapabilityOf("open_tab"), Cap::kNavigate);
  EXPECT_EQ(tools::CapabilityOf("evaluate"), Cap::kEval);
  EXPECT_EQ(tools::CapabilityOf("download_file"), Cap::kDownload);
  EXPECT_EQ(tools::CapabilityOf("webmcp_x_page0_add"), std::nullopt);
}

TEST(ToolCatalog, EveryPageToolHasExactlyOneSpec) {
  std::set<std::string> specs;
  for (const auto& spec : tools::PageToolSpecs()) {
    EXPECT_TRUE(tools::IsPageTool(spec.name)) << spec.name;
    EXPECT_TRUE(specs.insert(std::string(spec.name)).second) << spec.name << " twice";
  }
  for (const auto& tool : tools::PageTools({"eval", "download", "html"}))
    EXPECT_TRUE(specs.contains(tool["name"])) << tool["name"];
}

TEST(ToolCatalog, ATimeoutArgumentSetsItsToolsDeadline) {
  EXPECT_EQ(tools::PageToolDeadline("click", Json::object()), kPageToolDeadlineMs);
  EXPECT_EQ(tools::PageToolDeadline("download_file", Json::object()), kDownloadDeadlineMs);
  EXPECT_EQ(tools::PageToolDeadline("navigate", Json::object()), 30'000 + kPageDeadlineMarginMs);
  EXPECT_EQ(tools::PageToolDeadline("wait_for", {{"timeoutMs", 500}}), 500 + kPageDeadlineMarginMs);
}

TEST(ToolCatalog, TheExtensionsCatalogCarriesSchemaDefaults) {
  const std::string js = tools::ExtensionCatalogJs();
  EXPECT_NE(js.find("read_page: Object.freeze({ capability: 'read', sessionCap: null, deadlineMs: 30000, defaults: "
                    "Object.freeze({\"maxChars\":20000})"),
            std::string::npos)
      << js;
}

// The generator decides what is listed by default from sessionCap (codegen/generate.mjs).
TEST(ToolCatalog, TheExtensionsCatalogNamesTheSessionCapabilityOfEachTool) {
  const std::string js = tools::ExtensionCatalogJs();
  EXPECT_NE(js.find("drag: Object.freeze({ capability: 'act', sessionCap: 'drag',"), std::string::npos) << js;
  EXPECT_NE(js.find("save_pdf: Object.freeze({ capability: 'download', sessionCap: 'download',"), std::string::npos)
      << js;
}

// The page's own tools bring schemas with const, anyOf and oneOf (WebMCP
// apps written with zod and the like); a call is checked against them too.
Json PageTool(Json input_schema) { return {{"name", "page_tool"}, {"inputSchema", std::move(input_schema)}}; }

TEST(CheckArguments, HoldsAValueToItsConst) {
  const Json tool = PageTool({{"type", "object"}, {"properties", {{"kind", {{"const", "pickup"}}}}}});
  EXPECT_TRUE(tools::CheckArguments(tool, {{"kind", "pickup"}}));
  auto bad = tools::CheckArguments(tool, {{"kind", "drone"}});
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error(), "kind must be \"pickup\"");
}

TEST(CheckArguments, AnAnyOfOfConstantsNamesThemAll) {
  const Json method = {{"anyOf", {{{"const", "pickup"}, {"description", "at the shop"}}, {{"const", "courier"}}}}};
  const Json tool = PageTool({{"type", "object"}, {"properties", {{"method", method}}}});
  EXPECT_TRUE(tools::CheckArguments(tool, {{"method", "courier"}}));
  auto bad = tools::CheckArguments(tool, {{"method", "drone"}});
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error(), "method must be one of [\"pickup\",\"courier\"]");
}

TEST(CheckArguments, AnyOfAndOneOfTakeAValueThatFitsOneForm) {
  const Json forms = {{{"type", "string"}},
                      {{"type", "object"}, {"required", {"lat"}}, {"properties", {{"lat", {{"type", "number"}}}}}}};
  for (const char* key : {"anyOf", "oneOf"}) {
    const Json tool = PageTool({{"type", "object"}, {"properties", {{"where", {{key, forms}}}}}});
    EXPECT_TRUE(tools::CheckArguments(tool, {{"where", "Paris"}})) << key;
    EXPECT_TRUE(tools::CheckArguments(tool, {{"where", {{"lat", 48.8}}}})) << key;
    auto bad = tools::CheckArguments(tool, {{"where", {{"lon", 2.3}}}});
    ASSERT_FALSE(bad) << key;
    EXPECT_EQ(bad.error(), "where fits none of its " + std::string(key) +
                               " forms: where must be a string, not an object ({\"lon\":2.3}); or missing required "
                               "argument where.lat");
  }
}

TEST(CheckArguments, NullIsATypeOfItsOwn) {
  const Json slot = {{"anyOf", {{{"type", "string"}}, {{"type", "null"}}}}};
  const Json tool = PageTool({{"type", "object"}, {"properties", {{"slot", slot}}}});
  EXPECT_TRUE(tools::CheckArguments(tool, {{"slot", nullptr}}));
  EXPECT_TRUE(tools::CheckArguments(tool, {{"slot", "18:30"}}));
  EXPECT_FALSE(tools::CheckArguments(tool, {{"slot", 7}}));
}

TEST(CheckArguments, LeavesFormsItCannotReadAndVeryDeepSchemasToThePage) {
  EXPECT_TRUE(tools::CheckArguments(PageTool({{"type", "object"}, {"properties", {{"x", {{"anyOf", {1, 2}}}}}}}),
                                    {{"x", "anything"}}));
  Json deep = {{"type", "string"}};
  for (int i = 0; i < 200; ++i) deep = {{"anyOf", {deep}}};
  EXPECT_TRUE(tools::CheckArguments(PageTool({{"type", "object"}, {"properties", {{"x", deep}}}}), {{"x", 5}}));
}

// A page's schema is small (8 KB) but the model's arguments need not be: an
// array whose every item tries each form of an anyOf, each failed try written
// out, cost seconds. The forms get a fixed budget of work per call; past it
// they are left to the page (here the last item would fit neither form).
TEST(CheckArguments, StopsCheckingFormsPastItsBudget) {
  Json forms = Json::array();
  for (int i = 0; i < 30; ++i) forms.push_back({{"type", "null"}});
  forms.push_back({{"type", "number"}});
  const Json tool = PageTool({{"type", "object"}, {"properties", {{"xs", {{"items", {{"anyOf", forms}}}}}}}});
  Json xs = Json::array();
  for (int i = 0; i < 20'000; ++i) xs.push_back(i);
  xs.push_back("not a number");
  EXPECT_TRUE(tools::CheckArguments(tool, {{"xs", xs}}));
  // Within the budget the same item is refused.
  EXPECT_FALSE(tools::CheckArguments(tool, {{"xs", {1, 2, "not a number"}}}));
}

// An error shows a long value by what it is, never whole: the model sent it,
// and a form that fails writes its error at every try.
TEST(CheckArguments, AnErrorShowsALongValueCut) {
  const Json tool = PageTool({{"type", "object"}, {"properties", {{"n", {{"type", "number"}}}}}});
  auto bad = tools::CheckArguments(tool, {{"n", std::string(100'000, 'a')}});
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error(), "n must be a number, not a string (\"" + std::string(60, 'a') + "\"…)");
  bad = tools::CheckArguments(tool, {{"n", Json(std::vector<int>(50'000, 1))}});
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error(), "n must be a number, not an array (50000 items)");
}

}  // namespace
}  // namespace tb
